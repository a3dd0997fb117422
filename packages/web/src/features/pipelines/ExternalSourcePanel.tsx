import Sync from '@mui/icons-material/Sync';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { PipelineSourceView } from '@slipway/contracts';
import { errorMessage } from '../../ui/api-error';
import { FormAlert } from '../../ui/FormAlert';
import { PermissionButton } from '../access/Can';
import { useExternalPipelineQuery, useSyncExternalPipelineMutation } from '../external-pipelines/api';
import { formatTime } from './format';

/**
 * The marker of an external pipeline (decision 013) on its page: where its definition comes from,
 * when it was last synced and why the last sync failed, a link to the External pipelines page and
 * Sync now. Its definition changes only in git, so the editor below is read-only.
 */
export function ExternalSourcePanel({
  pipelineId,
  source,
}: {
  pipelineId: string;
  source: PipelineSourceView;
}) {
  const { t, i18n } = useTranslation();
  const { data: external } = useExternalPipelineQuery(pipelineId);
  const [sync, syncing] = useSyncExternalPipelineMutation();
  const [outcome, setOutcome] = useState<string | null>(null);

  const facts: [string, string, string][] = [
    ['repository', t('pipelines.external.repository'), source.url],
    ['revision', t('pipelines.external.revision'), source.revision],
    ['path', t('pipelines.external.path'), source.path],
    [
      'last-synced',
      t('pipelines.external.lastSynced'),
      external
        ? external.lastSyncedAt
          ? formatTime(external.lastSyncedAt, i18n.language)
          : t('externalPipelines.never')
        : '',
    ],
  ];

  return (
    <Alert
      severity="info"
      data-testid="external-pipeline-marker"
      sx={{ mb: 3, '& .MuiAlert-message': { width: '100%' } }}
    >
      <Typography variant="subtitle2" component="h2">
        {t('pipelines.external.title')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t('pipelines.external.body')}{' '}
        <Link component={RouterLink} to="/external-pipelines">
          {t('pipelines.external.manage')}
        </Link>
      </Typography>
      <Stack direction="row" spacing={3} component="dl" sx={{ my: 1, flexWrap: 'wrap', rowGap: 1 }}>
        {facts.map(([key, label, value]) => (
          <Box key={key}>
            <Typography component="dt" variant="caption" color="text.secondary">
              {label}
            </Typography>
            <Typography
              component="dd"
              data-testid={`external-${key}`}
              sx={{
                m: 0,
                fontFamily: key === 'last-synced' ? undefined : 'monospace',
                wordBreak: 'break-all',
              }}
            >
              {value || '—'}
            </Typography>
          </Box>
        ))}
      </Stack>
      {external?.syncError ? (
        <Alert severity="error" data-testid="external-sync-error" sx={{ mb: 1 }}>
          {t('pipelines.external.syncError', { error: external.syncError })}
        </Alert>
      ) : null}
      <FormAlert message={syncing.error ? errorMessage(syncing.error) : null} />
      <FormAlert message={outcome} severity="success" />
      <PermissionButton
        permission="pipelines:edit"
        size="small"
        variant="outlined"
        startIcon={<Sync />}
        loading={syncing.isLoading}
        onClick={() => {
          setOutcome(null);
          sync(pipelineId)
            .unwrap()
            .then(({ outcome: result, pipeline }) =>
              setOutcome(
                result === 'failed'
                  ? null
                  : t(`externalPipelines.outcome.${result}`, {
                      name: pipeline.name,
                      version: pipeline.version,
                    }),
              ),
            )
            .catch(() => undefined);
        }}
      >
        {t('externalPipelines.syncNow')}
      </PermissionButton>
    </Alert>
  );
}
