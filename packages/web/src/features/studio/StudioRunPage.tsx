import OpenInNew from '@mui/icons-material/OpenInNew';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import type { PipelineRunDetail } from '@slipway/contracts';
import { BackLink } from '../../ui/BackLink';
import { Button } from '../../ui/Button';
import { QueryPending } from '../../ui/QueryPending';
import { Skeleton } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { isFinished, useRunQuery } from '../pipelines/api';
import { useRunDefinition } from '../pipelines/useRunDefinition';
import { StatusChip } from '../pipelines/StatusChip';

/** how often an unfinished run is asked for again (as on the run page) */
const RUN_POLL_MS = 1000;

/** the run page's canvas (xyflow, elkjs), loaded with the run */
const RunCanvas = lazy(() => import('../pipelines/RunCanvas'));

/** `/studio/runs/:runId`: a run opened in the studio, read-only: its DAG with live statuses. */
export default function StudioRunPage() {
  const { t } = useTranslation();
  const { runId = '' } = useParams();
  const [finished, setFinished] = useState(false);
  const query = useRunQuery(runId, { pollingInterval: finished ? 0 : RUN_POLL_MS });
  const { data } = query;
  const ended = data ? isFinished(data.status) : false;
  if (ended !== finished) setFinished(ended);
  useDocumentTitle(
    data ? t('studioPage.runTitle', { name: data.name, number: data.number }) : t('nav.studio'),
  );
  return (
    <Box sx={{ maxWidth: 1600, minWidth: 0 }} data-testid="studio-run-page">
      <BackLink to="/studio">{t('studioPage.back')}</BackLink>
      {data ? (
        <RunStudio run={data} />
      ) : (
        <QueryPending query={query} what={t('studioPage.runLoadError')} lines={10} />
      )}
    </Box>
  );
}

function RunStudio({ run }: { run: PipelineRunDetail }) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState('');
  const definition = useRunDefinition(run);
  const task = run.taskRuns.filter((tr) => tr.pipelineTask === selected);
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1" sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          {run.name} #{run.number}
        </Typography>
        <StatusChip status={run.status} testId="studio-run-status" />
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', ml: 'auto' }}>
          <Button
            variant="outlined"
            component={RouterLink}
            to={`/pipelines/runs/${run.id}`}
            startIcon={<OpenInNew />}
          >
            {t('studioPage.openRunPage')}
          </Button>
          <Button variant="outlined" component={RouterLink} to={`/studio/pipelines/${run.pipelineId}`}>
            {t('studioPage.openPipeline')}
          </Button>
        </Box>
      </Box>
      <Alert severity="info" sx={{ mb: 2 }}>
        {t('studioPage.runReadOnly', { version: run.pipelineVersion })}
      </Alert>
      <Box dir="ltr" sx={{ minWidth: 0 }}>
        {definition === undefined ? (
          <Skeleton variant="rectangular" height={320} />
        ) : (
          <Suspense fallback={<Skeleton variant="rectangular" height={320} />}>
            <RunCanvas run={run} definition={definition} selected={selected} onSelect={setSelected} />
          </Suspense>
        )}
      </Box>
      {selected ? (
        <Typography data-testid="studio-run-selected" sx={{ mt: 2, overflowWrap: 'anywhere' }}>
          {t('studioPage.runSelected', {
            task: selected,
            status: task.length
              ? t(`pipelines.status.${task.at(-1)!.status}`, { defaultValue: task.at(-1)!.status })
              : t('pipelines.status.pending', { defaultValue: 'pending' }),
          })}
        </Typography>
      ) : null}
    </>
  );
}
