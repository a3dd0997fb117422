import ContentCopy from '@mui/icons-material/ContentCopy';
import Download from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClusterAttach } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { LoopbackWarning } from '../../ui/LoopbackWarning';
import { saveTextFile } from './save-text-file';

/** Attach step 2: download the YAML holding the agent token, and copy the kubectl command. */
export function ConnectClusterStep({
  attach,
  onDownloaded,
  onApplied,
}: {
  attach: ClusterAttach;
  onDownloaded?: () => void;
  onApplied: () => void;
}) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard?.writeText(attach.command);
    setCopied(true);
  }
  return (
    <Stack spacing={2} data-testid="connect-cluster" data-tour="cluster-attach-connect">
      <Typography>{t('clusters.connect.body')}</Typography>
      <LoopbackWarning url={attach.serverUrl} who="agent" />
      <Box>
        <Button
          variant="contained"
          startIcon={<Download />}
          onClick={() => {
            saveTextFile(attach.fileName, attach.yaml);
            onDownloaded?.();
          }}
          data-testid="download-yaml"
          data-tour="cluster-attach-download"
        >
          {t('clusters.connect.download')}
        </Button>
      </Box>
      <Typography variant="subtitle2" component="h3">
        {t('clusters.connect.command')}
      </Typography>
      <Stack direction="row" spacing={1} alignItems="center">
        <Box
          component="code"
          data-testid="kubectl-command"
          sx={{
            flex: 1,
            p: 1.5,
            bgcolor: 'action.hover',
            borderRadius: 1,
            fontFamily: 'monospace',
            overflowX: 'auto',
          }}
        >
          {attach.command}
        </Box>
        <Button startIcon={<ContentCopy />} onClick={() => void copy()} aria-live="polite">
          {copied ? t('clusters.connect.copied') : t('clusters.connect.copy')}
        </Button>
      </Stack>
      <Stack direction="row" justifyContent="flex-end">
        <Button variant="contained" onClick={onApplied} data-testid="applied-yaml">
          {t('clusters.connect.applied')}
        </Button>
      </Stack>
    </Stack>
  );
}
