import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { PipelineRunDetail } from '@slipway/contracts';
import { durationOf, formatTime } from './format';
import { StatusChip } from './StatusChip';

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
  return (
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
              <TableRow key={tr.id} data-testid="task-row" selected={tr.pipelineTask === selected}>
                <TableCell>
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
                </TableCell>
                <TableCell>
                  <StatusChip status={tr.status} />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTime(tr.startedAt, i18n.language)}</TableCell>
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
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}
