import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { PipelineRunDetail } from '@slipway/contracts';
import { DataTable, type Column } from '../../ui/DataTable';
import { durationOf, formatTime } from './format';
import { StatusChip } from './StatusChip';

type TaskRun = PipelineRunDetail['taskRuns'][number];

/** The run's task runs with their steps; a task's name selects it (as a click on the canvas does). */
export function RunTasks({
  run,
  selected,
  onSelect,
}: {
  run: PipelineRunDetail;
  selected: string;
  onSelect: (task: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const columns: Column<TaskRun>[] = [
    {
      id: 'task',
      header: t('pipelines.run.columns.task'),
      cell: (tr) => (
        <>
          <Link
            component="button"
            type="button"
            onClick={() => onSelect(tr.pipelineTask)}
            aria-label={t('studio.selectTask', { task: tr.pipelineTask })}
          >
            {tr.pipelineTask}
          </Link>
          {tr.isFinally ? ` (${t('pipelines.run.finally')})` : ''}
          {tr.attempt > 1 ? ` · ${t('studio.attempt', { attempt: tr.attempt })}` : ''}
          {tr.reason ? (
            <Typography variant="caption" display="block" color="text.secondary">
              {tr.reason}
            </Typography>
          ) : null}
        </>
      ),
    },
    {
      id: 'status',
      header: t('pipelines.run.columns.status'),
      cell: (tr) => <StatusChip status={tr.status} />,
    },
    {
      id: 'started',
      header: t('pipelines.run.columns.started'),
      cell: (tr) => formatTime(tr.startedAt, i18n.language),
      sx: { whiteSpace: 'nowrap' },
    },
    {
      id: 'finished',
      header: t('pipelines.run.columns.finished'),
      cell: (tr) => formatTime(tr.finishedAt, i18n.language),
      sx: { whiteSpace: 'nowrap' },
    },
    {
      id: 'duration',
      header: t('pipelines.run.columns.duration'),
      cell: (tr) => durationOf(tr.startedAt, tr.finishedAt),
    },
    {
      id: 'steps',
      header: t('pipelines.run.columns.steps'),
      cell: (tr) => (
        <Stack spacing={0.5}>
          {tr.steps.map((s) => (
            <Box key={s.idx} data-testid="step" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
              <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
                {s.name}
              </Typography>
              <StatusChip status={s.status} />
              {s.image ? (
                <Typography variant="caption" color="text.secondary">
                  {s.image}
                </Typography>
              ) : null}
              {s.exitCode !== null ? (
                <Typography variant="caption" color="text.secondary">
                  {t('pipelines.run.exitCode', { code: s.exitCode })}
                </Typography>
              ) : null}
            </Box>
          ))}
        </Stack>
      ),
    },
  ];
  return (
    <Paper variant="outlined" component="section" aria-labelledby="run-tasks-title" sx={{ p: 2, mb: 3 }}>
      <Typography id="run-tasks-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('pipelines.run.tasks')}
      </Typography>
      <DataTable
        aria-labelledby="run-tasks-title"
        columns={columns}
        rows={run.taskRuns}
        getRowId={(tr) => tr.id}
        rowTestId="task-row"
        isRowSelected={(tr) => tr.pipelineTask === selected}
        empty={<Typography color="text.secondary">{t('pipelines.run.noTasks')}</Typography>}
      />
    </Paper>
  );
}
