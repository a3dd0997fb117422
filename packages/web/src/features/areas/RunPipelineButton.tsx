import PlayArrow from '@mui/icons-material/PlayArrow';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PermissionButton } from '../access/Can';
import { usePermission } from '../access/usePermission';

/**
 * 'Run pipeline', guarded by pipelines:execute: without it the button is disabled with the
 * 'Action not allowed contact Admin' tooltip. With it, the button waits for the pipeline engine,
 * which is not built yet, and says so.
 */
export function RunPipelineButton() {
  const { t } = useTranslation();
  const { allowed } = usePermission('pipelines:execute');
  return (
    <Stack spacing={0.5} alignItems="flex-end">
      <PermissionButton
        permission="pipelines:execute"
        variant="contained"
        startIcon={<PlayArrow />}
        data-testid="run-pipeline-button"
        aria-describedby={allowed ? 'run-pipeline-help' : undefined}
        disabled
      >
        {t('pipelinesRun.run')}
      </PermissionButton>
      {allowed ? (
        <Typography id="run-pipeline-help" variant="caption" color="text.secondary">
          {t('pipelinesRun.engineLater')}
        </Typography>
      ) : null}
    </Stack>
  );
}
