import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import type { PipelineRunDetail } from '@slipway/contracts';
import { errorMessage } from '../../app/api-error';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { FormAlert } from '../../ui/FormAlert';
import { LoadError } from '../../ui/LoadError';
import { Skeleton } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { PermissionButton } from '../access/Can';
import { isFinished, useRunActionMutation, useRunQuery } from './api';
import { durationOf, formatTime } from './format';
import { RunLogs } from './RunLogs';
import { StatusChip } from './StatusChip';

/** how often an unfinished run is asked for again */
export const RUN_POLL_MS = 1000;

type Action = 'rerun' | 'abort' | 'rollback';

/** One run: status and timing, actions, tasks with their steps, logs, params and results. */
export default function RunPage() {
  const { t } = useTranslation();
  const { runId = '' } = useParams();
  const [finished, setFinished] = useState(false);
  const { data, error, isLoading, isFetching, refetch } = useRunQuery(runId, {
    pollingInterval: finished ? 0 : RUN_POLL_MS,
  });
  const ended = data ? isFinished(data.status) : false;
  if (ended !== finished) setFinished(ended);
  useDocumentTitle(data ? `${data.name} #${data.number}` : t('pipelines.runsTitle'));

  let body;
  if (isLoading) body = <Skeleton lines={10} />;
  else if (!data)
    body = (
      <LoadError
        what={t('pipelines.run.loadError')}
        error={error}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  else body = <RunView run={data} />;
  return (
    <Box sx={{ maxWidth: 1200 }} data-testid="run-page">
      <Link component={RouterLink} to="/pipelines" variant="body2" sx={{ display: 'inline-block', mb: 1 }}>
        {t('pipelines.editor.back')}
      </Link>
      {body}
    </Box>
  );
}

function RunView({ run }: { run: PipelineRunDetail }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState<Action | null>(null);
  const [tab, setTab] = useState<'logs' | 'params' | 'results'>('logs');
  const [act, { isLoading, error, reset }] = useRunActionMutation();
  const active = !isFinished(run.status);

  function perform(action: Action) {
    reset();
    act({ id: run.id, action })
      .unwrap()
      .then((answer) => {
        setConfirming(null);
        if (answer.id !== run.id) void navigate(`/pipelines/runs/${answer.id}`);
      })
      .catch(() => undefined);
  }

  const facts: [string, string][] = [
    [t('pipelines.run.queued'), formatTime(run.queuedAt, i18n.language)],
    [t('pipelines.run.started'), formatTime(run.startedAt, i18n.language)],
    [t('pipelines.run.finished'), formatTime(run.finishedAt, i18n.language)],
    [t('pipelines.run.duration'), durationOf(run.startedAt, run.finishedAt)],
  ];
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1">
          {run.name} #{run.number}
        </Typography>
        <StatusChip status={run.status} testId="run-status" />
        <Stack direction="row" spacing={1} sx={{ ml: 'auto' }}>
          <PermissionButton
            permission="pipelines:execute"
            variant="outlined"
            loading={isLoading && confirming === null}
            onClick={() => perform('rerun')}
          >
            {t('pipelines.run.rerun')}
          </PermissionButton>
          {active ? (
            <PermissionButton
              permission="pipelines:execute"
              variant="outlined"
              color="error"
              onClick={() => {
                reset();
                setConfirming('abort');
              }}
            >
              {t('pipelines.run.abort')}
            </PermissionButton>
          ) : null}
          <PermissionButton
            permission="pipelines:execute"
            variant="outlined"
            color="warning"
            onClick={() => {
              reset();
              setConfirming('rollback');
            }}
          >
            {t('pipelines.run.rollback')}
          </PermissionButton>
        </Stack>
      </Box>
      {confirming === null ? <FormAlert message={error ? errorMessage(error) : null} /> : null}
      {run.reason || run.message ? (
        <Typography data-testid="run-reason" color="text.secondary" sx={{ mb: 1 }}>
          {[run.reason, run.message].filter(Boolean).join(': ')}
        </Typography>
      ) : null}
      {run.status === 'pending' && run.queuePosition !== null ? (
        <Typography data-testid="queue-position" sx={{ mb: 1 }}>
          {t('pipelines.run.queuePosition', { position: run.queuePosition })}
        </Typography>
      ) : null}
      <Stack direction="row" spacing={4} sx={{ mb: 3, flexWrap: 'wrap' }} component="dl">
        {facts.map(([label, value]) => (
          <Box key={label}>
            <Typography component="dt" variant="caption" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" sx={{ m: 0 }}>
              {value || '—'}
            </Typography>
          </Box>
        ))}
      </Stack>

      <Paper variant="outlined" component="section" aria-labelledby="run-tasks-title" sx={{ p: 2, mb: 3 }}>
        <Typography id="run-tasks-title" variant="h6" component="h2" sx={{ mb: 1 }}>
          {t('pipelines.run.tasks')}
        </Typography>
        {run.taskRuns.length === 0 ? (
          <Typography color="text.secondary">{t('pipelines.run.noTasks')}</Typography>
        ) : (
          <Table size="small" aria-labelledby="run-tasks-title">
            <TableHead>
              <TableRow>
                {(['task', 'status', 'started', 'finished', 'duration', 'steps'] as const).map((c) => (
                  <TableCell key={c}>{t(`pipelines.run.columns.${c}`)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {run.taskRuns.map((tr) => (
                <TableRow key={tr.id} data-testid="task-row">
                  <TableCell>
                    {tr.pipelineTask}
                    {tr.isFinally ? ` (${t('pipelines.run.finally')})` : ''}
                    {tr.reason ? (
                      <Typography variant="caption" display="block" color="text.secondary">
                        {tr.reason}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell>
                    <StatusChip status={tr.status} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {formatTime(tr.startedAt, i18n.language)}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {formatTime(tr.finishedAt, i18n.language)}
                  </TableCell>
                  <TableCell>{durationOf(tr.startedAt, tr.finishedAt)}</TableCell>
                  <TableCell>
                    <Stack spacing={0.5}>
                      {tr.steps.map((s) => (
                        <Box
                          key={s.idx}
                          data-testid="step"
                          sx={{ display: 'flex', gap: 1, alignItems: 'center' }}
                        >
                          <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
                            {s.name}
                          </Typography>
                          <StatusChip status={s.status} />
                          {s.exitCode !== null ? (
                            <Typography variant="caption" color="text.secondary">
                              {t('pipelines.run.exitCode', { code: s.exitCode })}
                            </Typography>
                          ) : null}
                        </Box>
                      ))}
                    </Stack>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Paper>

      <Tabs value={tab} onChange={(_e, v: typeof tab) => setTab(v)} sx={{ mb: 2 }}>
        <Tab value="logs" label={t('pipelines.run.logs')} />
        <Tab value="params" label={t('pipelines.run.params')} />
        <Tab value="results" label={t('pipelines.run.results')} />
      </Tabs>
      {tab === 'logs' ? <RunLogs run={run} /> : null}
      {tab === 'params' ? <Values values={run.params} empty={t('pipelines.run.noParams')} /> : null}
      {tab === 'results' ? <Values values={run.results ?? {}} empty={t('pipelines.run.noResults')} /> : null}

      <ConfirmDialog
        open={confirming === 'abort'}
        title={t('pipelines.run.abortTitle')}
        body={t('pipelines.run.abortBody')}
        confirmLabel={t('pipelines.run.abort')}
        loading={isLoading}
        error={error ? errorMessage(error) : null}
        onConfirm={() => perform('abort')}
        onClose={() => setConfirming(null)}
      />
      <ConfirmDialog
        open={confirming === 'rollback'}
        title={t('pipelines.run.rollbackTitle')}
        body={t('pipelines.run.rollbackBody')}
        confirmLabel={t('pipelines.run.rollback')}
        loading={isLoading}
        error={error ? errorMessage(error) : null}
        onConfirm={() => perform('rollback')}
        onClose={() => setConfirming(null)}
      />
    </>
  );
}

function Values({ values, empty }: { values: Record<string, unknown>; empty: string }) {
  const entries = Object.entries(values);
  if (entries.length === 0) return <Typography color="text.secondary">{empty}</Typography>;
  return (
    <Table size="small">
      <TableBody>
        {entries.map(([k, v]) => (
          <TableRow key={k}>
            <TableCell sx={{ fontFamily: 'monospace', width: '30%' }}>{k}</TableCell>
            <TableCell sx={{ fontFamily: 'monospace' }}>
              {typeof v === 'string' ? v : JSON.stringify(v)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
