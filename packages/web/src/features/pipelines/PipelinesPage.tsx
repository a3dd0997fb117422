import AccountTree from '@mui/icons-material/AccountTree';
import Add from '@mui/icons-material/Add';
import PlayArrow from '@mui/icons-material/PlayArrow';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { PermissionButton } from '../access/Can';
import { PipelineList } from './PipelineList';
import { RunDialog } from './RunDialog';
import { RunList } from './RunList';

/** Pipelines: the pipelines of the workspace and their runs, newest first. */
export default function PipelinesPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('nav.pipelines'));
  const navigate = useNavigate();
  const [running, setRunning] = useState(false);
  return (
    <Box data-testid="area-pipelines" sx={{ maxWidth: 1200 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 3, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1">
          {t('nav.pipelines')}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ ml: 'auto' }}>
          <PermissionButton
            permission="pipelines:create"
            onClick={() => void navigate('/pipelines/new')}
            variant="outlined"
            startIcon={<Add />}
            data-testid="new-pipeline-button"
          >
            {t('pipelines.newPipeline')}
          </PermissionButton>
          <PermissionButton
            permission="pipelines:execute"
            variant="contained"
            startIcon={<PlayArrow />}
            data-testid="run-pipeline-button"
            data-tour="pipeline-run-initiate"
            onClick={() => setRunning(true)}
          >
            {t('pipelinesRun.run')}
          </PermissionButton>
        </Stack>
      </Box>
      <Stack spacing={3}>
        <PipelineList icon={AccountTree} />
        <RunList />
      </Stack>
      {running ? <RunDialog onClose={() => setRunning(false)} /> : null}
    </Box>
  );
}
