import Typography from '@mui/material/Typography';
import { DEFAULT_WORKSPACE_RUNS_IN_PROGRESS } from '@slipway/contracts';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../app/hooks';
import { RunLimitField } from './RunLimitField';

/** The current workspace's limit on its runs in progress at once (Settings → Account). */
export function WorkspaceRunLimitSection() {
  const { t } = useTranslation();
  const workspaceId = useAppSelector((s) => s.auth.projectId);
  if (!workspaceId) return null;
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('runLimits.workspace.description', { default: DEFAULT_WORKSPACE_RUNS_IN_PROGRESS })}
      </Typography>
      <RunLimitField
        target={{ kind: 'workspaces', id: workspaceId }}
        label={t('runLimits.workspace.field')}
      />
    </>
  );
}
