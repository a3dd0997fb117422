import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';

/**
 * The new token, shown this once with a copy button. Without the clipboard API (or when it is
 * refused) the token is selected so the user can copy it themselves.
 */
export function TokenDialog({ name, token, onClose }: { name: string; token: string; onClose: () => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function copy() {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(token);
      setNotice(t('serviceAccountsPage.token.copied'));
    } catch {
      input.current?.focus();
      input.current?.select();
      setNotice(t('serviceAccountsPage.token.selectToCopy'));
    }
  }

  return (
    <Dialog open aria-labelledby="token-title" fullWidth maxWidth="sm" data-testid="token-dialog">
      <DialogTitle id="token-title">{t('serviceAccountsPage.token.title', { name })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning">{t('serviceAccountsPage.token.warning')}</Alert>
          <TextField
            inputRef={input}
            id="service-account-token"
            label={t('serviceAccountsPage.token.label')}
            value={token}
            fullWidth
            slotProps={{
              htmlInput: { readOnly: true, 'data-testid': 'service-account-token' },
              input: { sx: { fontFamily: 'monospace' } },
            }}
            onFocus={(e) => e.target.select()}
          />
          <FormAlert message={notice} severity="success" />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void copy()} variant="outlined">
          {t('serviceAccountsPage.token.copy')}
        </Button>
        <Button onClick={onClose} variant="contained">
          {t('serviceAccountsPage.token.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
