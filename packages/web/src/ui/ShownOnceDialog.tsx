import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button';
import { FormAlert } from './FormAlert';

/**
 * Copies text to the clipboard and says so (`<words>.copied`); without the clipboard API (or when
 * it is refused) it selects the text in its field instead and says to copy it
 * (`<words>.selectToCopy`). `words` is where the dialog's translations are.
 */
export function useCopy(words: string) {
  const { t } = useTranslation();
  const [notice, setNotice] = useState<string | null>(null);
  async function copy(text: string, input: HTMLInputElement | null) {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      setNotice(t(`${words}.copied`));
    } catch {
      input?.focus();
      input?.select();
      setNotice(t(`${words}.selectToCopy`));
    }
  }
  return { notice, copy };
}

/** A read-only value to copy (a token, an address): monospace, selected whole on focus. */
export function CopyField({
  inputRef,
  ...field
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  /** The field's id, also its input's test id. */
  id: string;
  label: string;
  value: string;
}) {
  return (
    <TextField
      inputRef={inputRef}
      {...field}
      fullWidth
      slotProps={{
        htmlInput: { readOnly: true, 'data-testid': field.id },
        input: { sx: { fontFamily: 'monospace' } },
      }}
      onFocus={(e) => e.target.select()}
    />
  );
}

/**
 * A secret shown this once (a token, a webhook's secret): the warning that it will not be shown
 * again, its fields, the copy notice, and the copy buttons (`actions`) before Done.
 */
export function ShownOnceDialog({
  id,
  testId,
  title,
  warning,
  notice,
  children,
  actions,
  doneLabel,
  onClose,
}: {
  /** Names the title (`<id>-title`), which labels the dialog. */
  id: string;
  testId: string;
  title: ReactNode;
  warning: string;
  notice: string | null;
  children: ReactNode;
  actions: ReactNode;
  doneLabel: string;
  onClose: () => void;
}) {
  return (
    <Dialog open aria-labelledby={`${id}-title`} fullWidth maxWidth="sm" data-testid={testId}>
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning">{warning}</Alert>
          {children}
          <FormAlert message={notice} severity="success" />
        </Stack>
      </DialogContent>
      <DialogActions>
        {actions}
        <Button onClick={onClose} variant="contained">
          {doneLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
