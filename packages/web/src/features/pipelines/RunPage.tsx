import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { PipelineRunDetail } from '@slipway/contracts';
import { BackLink } from '../../ui/BackLink';
import { QueryPending } from '../../ui/QueryPending';
import { Skeleton } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useEnvironmentQuery } from '../environments/api';
import { isFinished, useRunQuery } from './api';
import { durationOf, formatTime } from './format';
import { RunActions } from './RunActions';
import { RunExportButton } from './RunExportButton';
import { RunLogs } from './RunLogs';
import { RunTasks } from './RunTasks';
import { useTriggerText } from './RunTrigger';
import { StatusChip } from './StatusChip';
import { useRunDefinition } from './useRunDefinition';
import { OpenInStudio } from '../studio/OpenInStudio';

/** how often an unfinished run is asked for again */
export const RUN_POLL_MS = 1000;

/** the canvas (xyflow, elkjs, the YAML grammar) loads only when a run is opened */
const RunCanvas = lazy(() => import('./RunCanvas'));

/**
 * One run in the studio: status and timing, re-run / abort / rollback, the DAG canvas and the
 * timeline strip, the tasks with their steps, and tabs for input params, logs and results.
 */
export default function RunPage() {
  const { t } = useTranslation();
  const { runId = '' } = useParams();
  const [finished, setFinished] = useState(false);
  const query = useRunQuery(runId, {
    pollingInterval: finished ? 0 : RUN_POLL_MS,
  });
  const { data } = query;
  const ended = data ? isFinished(data.status) : false;
  if (ended !== finished) setFinished(ended);
  useDocumentTitle(data ? `${data.name} #${data.number}` : t('pipelines.runsTitle'));

  let body;
  if (!data) body = <QueryPending query={query} what={t('pipelines.run.loadError')} lines={10} />;
  else body = <RunView run={data} />;
  return (
    <Box sx={{ maxWidth: 1200, minWidth: 0 }} data-testid="run-page">
      <BackLink to="/pipelines">{t('pipelines.editor.back')}</BackLink>
      {body}
    </Box>
  );
}

function RunView({ run }: { run: PipelineRunDetail }) {
  const { t, i18n } = useTranslation();
  const [tab, setTab] = useState<'params' | 'logs' | 'results'>('logs');
  const [selected, setSelected] = useState('');
  const definition = useRunDefinition(run);
  const environment = useEnvironmentQuery(run.environmentId ?? '', { skip: !run.environmentId }).data;
  const trigger = useTriggerText();

  function select(task: string) {
    setSelected(task);
    setTab('logs');
  }

  const facts: [string, string][] = [
    [t('pipelines.run.trigger'), trigger.source(run.trigger)],
    ...(trigger.code(run.trigger)
      ? [[t('pipelines.run.code'), trigger.code(run.trigger)] as [string, string]]
      : []),
    [t('pipelines.run.queued'), formatTime(run.queuedAt, i18n.language)],
    [t('pipelines.run.started'), formatTime(run.startedAt, i18n.language)],
    [t('pipelines.run.finished'), formatTime(run.finishedAt, i18n.language)],
    [t('pipelines.run.duration'), durationOf(run.startedAt, run.finishedAt)],
    [t('studio.timeoutHours'), String(run.timeoutMs / 3_600_000)],
    [
      t('pipelines.run.environment'),
      !run.environmentId
        ? t('pipelines.run.noEnvironment')
        : environment?.clusterId && environment.namespace
          ? t('pipelines.runDialog.environmentOn', {
              name: environment.name,
              cluster: environment.clusterName ?? environment.clusterId,
              namespace: environment.namespace,
            })
          : (environment?.name ?? run.environmentId),
    ],
  ];
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1" sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          {run.name} #{run.number}
        </Typography>
        <StatusChip status={run.status} testId="run-status" />
        <RunActions run={run} />
        <RunExportButton run={run} />
        <OpenInStudio run={run.id} />
      </Box>
      {run.reason || run.message ? (
        <Typography data-testid="run-reason" color="text.secondary" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
          {[run.reason, run.message].filter(Boolean).join(': ')}
        </Typography>
      ) : null}
      {run.status === 'pending' && run.queuePosition !== null ? (
        <Typography data-testid="queue-position" sx={{ mb: 1 }}>
          {t('pipelines.run.queuePosition', { position: run.queuePosition })}
        </Typography>
      ) : null}
      {/* a gap (not margins) between the facts, so a wrapped row starts at the edge */}
      <Stack
        direction="row"
        useFlexGap
        sx={{ mb: 3, flexWrap: 'wrap', columnGap: 4, rowGap: 1 }}
        component="dl"
      >
        {facts.map(([label, value]) => (
          <Box key={label} sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
            <Typography component="dt" variant="caption" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" sx={{ m: 0 }}>
              {value || '—'}
            </Typography>
          </Box>
        ))}
      </Stack>

      <Paper
        variant="outlined"
        component="section"
        aria-labelledby="run-canvas-title"
        data-tour="run-canvas"
        sx={{ p: 2, mb: 3 }}
      >
        <Typography id="run-canvas-title" variant="h6" component="h2" sx={{ mb: 1 }}>
          {t('studio.canvas')}
        </Typography>
        {definition === undefined ? (
          <Skeleton lines={6} />
        ) : (
          <Suspense fallback={<Skeleton lines={6} />}>
            <RunCanvas run={run} definition={definition} selected={selected} onSelect={select} />
          </Suspense>
        )}
      </Paper>

      <RunTasks run={run} selected={selected} onSelect={select} />

      <Tabs
        value={tab}
        onChange={(_e, v: typeof tab) => setTab(v)}
        variant="scrollable"
        scrollButtons={false}
        sx={{ mb: 2 }}
      >
        <Tab value="params" label={t('studio.inputParams')} data-tour="run-tab-params" />
        <Tab value="logs" label={t('pipelines.run.logs')} data-tour="run-tab-logs" />
        <Tab value="results" label={t('pipelines.run.results')} />
      </Tabs>
      {tab === 'logs' ? (
        <>
          {selected ? (
            <Typography data-testid="selected-task" variant="body2" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
              {t('studio.selectedTask', { task: selected })}
            </Typography>
          ) : null}
          <RunLogs run={run} task={selected} onTaskChange={setSelected} />
        </>
      ) : null}
      {tab === 'params' ? (
        <Box data-tour="run-params-panel">
          <Values values={run.params} empty={t('pipelines.run.noParams')} />
        </Box>
      ) : null}
      {tab === 'results' ? <RunResults run={run} /> : null}
    </>
  );
}

function RunResults({ run }: { run: PipelineRunDetail }) {
  const { t } = useTranslation();
  const perTask = run.taskRuns.filter((tr) => tr.results && Object.keys(tr.results).length > 0);
  if (Object.keys(run.results ?? {}).length === 0 && perTask.length === 0)
    return <Typography color="text.secondary">{t('studio.noResults')}</Typography>;
  return (
    <Stack spacing={2} data-testid="run-results">
      {Object.keys(run.results ?? {}).length ? (
        <Box>
          <Typography variant="subtitle2" component="h3">
            {t('studio.pipelineResults')}
          </Typography>
          <Values values={run.results ?? {}} empty="" />
        </Box>
      ) : null}
      {perTask.map((tr) => (
        <Box key={tr.id}>
          <Typography variant="subtitle2" component="h3" sx={{ overflowWrap: 'anywhere' }}>
            {tr.pipelineTask}
          </Typography>
          <Values values={tr.results ?? {}} empty="" />
        </Box>
      ))}
    </Stack>
  );
}

function Values({ values, empty }: { values: Record<string, unknown>; empty: string }) {
  const entries = Object.entries(values);
  if (entries.length === 0) return <Typography color="text.secondary">{empty}</Typography>;
  // long names and values wrap anywhere; whatever still cannot fit scrolls inside the box
  const cell = { fontFamily: 'monospace', overflowWrap: 'anywhere', verticalAlign: 'top' } as const;
  return (
    <Box sx={{ overflowX: 'auto', maxWidth: '100%' }}>
      <Table size="small">
        <TableBody>
          {entries.map(([k, v]) => (
            <TableRow key={k}>
              <TableCell sx={{ ...cell, width: '30%' }}>{k}</TableCell>
              <TableCell sx={cell}>{typeof v === 'string' ? v : JSON.stringify(v)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
