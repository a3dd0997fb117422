import AccountTree from '@mui/icons-material/AccountTree';
import Code from '@mui/icons-material/Code';
import PlayArrow from '@mui/icons-material/PlayArrow';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AreaPage } from '../../ui/AreaPage';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { PermissionButton } from '../access/Can';
import { CreateButton } from '../access/PermissionActions';
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
    <AreaPage
      id="pipelines"
      title={t('nav.pipelines')}
      actions={
        <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1 }}>
          <CreateButton
            permission="pipelines:create"
            onClick={() => void navigate('/pipelines/new')}
            variant="outlined"
            data-testid="new-pipeline-button"
          >
            {t('pipelines.newPipeline')}
          </CreateButton>
          <PermissionButton
            permission="pipelines:execute"
            variant="outlined"
            startIcon={<Code />}
            data-testid="run-from-yaml-button"
            onClick={() => void navigate('/pipelines/run-yaml')}
          >
            {t('pipelines.fromYaml.entry')}
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
      }
    >
      <PipelineList icon={AccountTree} />
      <RunList />
      {running ? <RunDialog onClose={() => setRunning(false)} /> : null}
    </AreaPage>
  );
}
