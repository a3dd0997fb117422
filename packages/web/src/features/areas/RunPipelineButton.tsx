import PlayArrow from '@mui/icons-material/PlayArrow';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PermissionButton } from '../access/Can';

/**
 * 'Run pipeline', guarded by pipelines:execute: without it the button is disabled with the
 * 'Action not allowed contact Admin' tooltip. With it, it opens the pipelines page, where a run
 * is started (microservices do not have their own pipelines yet).
 */
export function RunPipelineButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <PermissionButton
      permission="pipelines:execute"
      variant="contained"
      startIcon={<PlayArrow />}
      data-testid="run-pipeline-button"
      onClick={() => void navigate('/pipelines')}
    >
      {t('pipelinesRun.run')}
    </PermissionButton>
  );
}
