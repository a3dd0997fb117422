import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import type { FormEvent, ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button';
import { FormAlert } from './FormAlert';

/** What `FormDialog` takes of a `useFormFields` form: its error, whether it is sending, its element. */
export interface DialogForm {
  formError: string | null;
  submitting: boolean;
  formRef: Ref<HTMLFormElement>;
}

export interface FormDialogProps {
  /** Names the title (`<id>-title`), which labels the dialog. */
  id: string;
  /** The form hook, standing for `error`, `busy` and `formRef`. */
  form?: DialogForm;
  /** For a dialog that stays mounted while closed; open by default. */
  open?: boolean;
  title: ReactNode;
  /** The form's error (its `formError`), in an alert above everything else. */
  error?: string | null;
  /** Shown above the fields: an intro, a notice. */
  lead?: ReactNode;
  /** The fields, stacked. */
  children: ReactNode;
  submitLabel: string;
  /** Cancel's label; 'Cancel' by default. */
  cancelLabel?: string;
  /** Shown only, nothing to save: no submit button. */
  readOnly?: boolean;
  /** While saving: the submit button spins, and neither Cancel, Escape nor a click outside closes. */
  busy?: boolean;
  submitDisabled?: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onClose: () => void;
  /** The form element, for a form hook that moves focus to the first field in error. */
  formRef?: Ref<HTMLFormElement>;
  maxWidth?: 'xs' | 'sm' | 'md';
}

/**
 * A dialog holding one form: its title, what goes above the fields, the fields, and Cancel and
 * submit. Enter in a field submits; the browser's own validation is off, so the form's messages
 * (the API's wording) are the ones shown.
 */
export function FormDialog({
  id,
  form,
  open = true,
  title,
  error = form?.formError,
  lead,
  children,
  submitLabel,
  cancelLabel,
  readOnly = false,
  busy = form?.submitting ?? false,
  submitDisabled,
  onSubmit,
  onClose,
  formRef = form?.formRef,
  maxWidth = 'sm',
}: FormDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={`${id}-title`}
      fullWidth
      maxWidth={maxWidth}
    >
      <form ref={formRef} noValidate onSubmit={onSubmit}>
        <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
        <DialogContent>
          <FormAlert message={error} />
          {lead}
          <Stack spacing={2} sx={{ pt: 1 }}>
            {children}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {cancelLabel ?? t('common.cancel')}
          </Button>
          {readOnly ? null : (
            <Button type="submit" variant="contained" loading={busy} disabled={submitDisabled}>
              {submitLabel}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
