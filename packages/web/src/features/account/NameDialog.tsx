import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { workspaceRequestSchema } from '@slipway/contracts';
import { formErrors, type ApiError } from '../../app/api-error';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { useFormFields } from '../../ui/useFormFields';

/** Asks for a name (a new workspace, or renaming one or the organisation) with the name rule of spec §5. */
export function NameDialog({
  title,
  submitLabel,
  initial = '',
  onSubmit,
  onClose,
}: {
  title: string;
  submitLabel: string;
  initial?: string;
  onSubmit: (name: string) => Promise<{ error?: ApiError }>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const form = useFormFields({ name: initial });
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setServerError(null);
    const body = form.parse(workspaceRequestSchema, form.values);
    if (!body) return;
    setBusy(true);
    const answer = await onSubmit(body.name);
    setBusy(false);
    if (!answer.error) return onClose();
    const { fields, message } = formErrors(answer.error);
    form.showErrors(fields);
    setServerError(message);
  }

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby="name-dialog-title"
      fullWidth
      maxWidth="xs"
    >
      <form ref={form.formRef} noValidate onSubmit={submit}>
        <DialogTitle id="name-dialog-title">{title}</DialogTitle>
        <DialogContent>
          <FormAlert message={serverError} />
          <TextField {...form.field('name')} label={t('account.name')} autoFocus fullWidth sx={{ mt: 1 }} />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={busy}>
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
