import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoopbackWarning } from '../../ui/LoopbackWarning';
import type { WebhookWithSecret } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';

/** The address a provider posts to: this page's origin and the webhook's path. */
export function payloadUrl(path: string, origin = window.location.origin): string {
  return `${origin}${path}`;
}

/**
 * The payload URL and the secret (GitLab: the secret token), shown once after create or rotate,
 * each with a copy button. Without the clipboard API the text is selected for the user to copy.
 */
export function SecretDialog({ webhook, onClose }: { webhook: WebhookWithSecret; onClose: () => void }) {
  const { t } = useTranslation();
  const urlInput = useRef<HTMLInputElement>(null);
  const secretInput = useRef<HTMLInputElement>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const url = payloadUrl(webhook.path);

  async function copy(text: string, input: HTMLInputElement | null) {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      setNotice(t('webhooks.secret.copied'));
    } catch {
      input?.focus();
      input?.select();
      setNotice(t('webhooks.secret.selectToCopy'));
    }
  }

  const readOnly = (testId: string) => ({
    htmlInput: { readOnly: true, 'data-testid': testId },
    input: { sx: { fontFamily: 'monospace' } },
  });
  return (
    <Dialog
      open
      aria-labelledby="webhook-secret-title"
      fullWidth
      maxWidth="sm"
      data-testid="webhook-secret-dialog"
    >
      <DialogTitle id="webhook-secret-title">
        {t('webhooks.secret.title', { type: t(`webhooks.types.${webhook.type}`) })}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning">{t('webhooks.secret.warning')}</Alert>
          <LoopbackWarning url={url} who="provider" />
          <TextField
            inputRef={urlInput}
            id="webhook-payload-url"
            label={t('webhooks.secret.url')}
            value={url}
            fullWidth
            slotProps={readOnly('webhook-payload-url')}
            onFocus={(e) => e.target.select()}
          />
          <TextField
            inputRef={secretInput}
            id="webhook-secret"
            label={webhook.type === 'gitlab' ? t('webhooks.secret.token') : t('webhooks.secret.secret')}
            value={webhook.secret}
            fullWidth
            slotProps={readOnly('webhook-secret')}
            onFocus={(e) => e.target.select()}
          />
          <Typography variant="body2" color="text.secondary">
            {t('webhooks.secret.contentType', { event: webhook.event })}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('webhooks.secret.params')}
          </Typography>
          <FormAlert message={notice} severity="success" />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="outlined" onClick={() => void copy(url, urlInput.current)}>
          {t('webhooks.secret.copyUrl')}
        </Button>
        <Button variant="outlined" onClick={() => void copy(webhook.secret, secretInput.current)}>
          {t('webhooks.secret.copySecret')}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {t('webhooks.secret.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
