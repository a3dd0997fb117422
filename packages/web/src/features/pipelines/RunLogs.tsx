import FileDownload from '@mui/icons-material/FileDownload';
import Search from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PipelineRunDetail } from '@slipway/contracts';
import { useAppSelector } from '../../app/hooks';
import { Button } from '../../ui/Button';
import { downloadApiFile } from '../../app/download-file';
import { isFinished } from './api';
import { stripAnsi } from './logs/log-format';
import { LogTerminal, type LogTerminalHandle } from './logs/LogTerminal';
import { SEARCH_PAGE, useLazySearchRunLogsQuery } from './logs/logs-api';
import { useLogStream } from './logs/use-log-stream';

export { LOG_POLL_MS } from './logs/use-log-stream';

/**
 * The logs panel: task and step selection, the live terminal (follow the end, or scroll back),
 * download of the selection, and search within the run. The task is the panel's own unless the
 * caller controls it with `task` (e.g. the task selected on the DAG) and `onTaskChange`.
 */
export function RunLogs({
  run,
  task: controlledTask,
  onTaskChange,
}: {
  run: PipelineRunDetail;
  /** the task whose logs show ('' for the whole run); set, the caller owns the selection */
  task?: string;
  onTaskChange?: (task: string) => void;
}) {
  const { t } = useTranslation();
  const auth = useAppSelector((s) => s.auth);
  const [ownTask, setOwnTask] = useState('');
  const task = controlledTask ?? ownTask;
  // the chosen step belongs to the task it was chosen in; another task starts at all steps
  const [chosenStep, setChosenStep] = useState({ task: '', step: '' });
  const step = chosenStep.task === task ? chosenStep.step : '';
  const setStep = (name: string) => setChosenStep({ task, step: name });
  const setTask = (name: string) => {
    setChosenStep({ task: '', step: '' });
    if (controlledTask === undefined) setOwnTask(name);
    onTaskChange?.(name);
  };
  const [follow, setFollow] = useState(true);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const [q, setQ] = useState('');
  const [search, searched] = useLazySearchRunLogsQuery();
  const terminal = useRef<LogTerminalHandle>(null);
  const { state, error } = useLogStream(terminal, run.id, task, step, isFinished(run.status));
  const steps = run.taskRuns.find((tr) => tr.pipelineTask === task)?.steps ?? [];
  // a task chosen on the DAG may not have started yet; it is still a choice
  const tasks = [...new Set([...run.taskRuns.map((tr) => tr.pipelineTask), ...(task ? [task] : [])])];

  const query = new URLSearchParams({
    download: '1',
    ...(task ? { task } : {}),
    ...(step ? { step } : {}),
  }).toString();
  const runSearch = () => {
    if (q.trim()) void search({ id: run.id, q: q.trim() });
  };

  return (
    <Box>
      {/* a gap (not margins) between the controls, so a wrapped row starts at the edge */}
      <Stack
        direction="row"
        useFlexGap
        spacing={2}
        sx={{ mb: 2, flexWrap: 'wrap', rowGap: 1 }}
        alignItems="center"
      >
        <TextField
          select
          size="small"
          label={t('pipelines.run.logTask')}
          data-tour="run-log-task"
          value={task}
          onChange={(e) => setTask(e.target.value)}
          sx={{ minWidth: 200, flexGrow: { xs: 1, sm: 0 } }}
        >
          <MenuItem value="">{t('pipelines.run.wholeRun')}</MenuItem>
          {tasks.map((name) => (
            <MenuItem key={name} value={name}>
              {name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('pipelines.run.logStep')}
          value={step}
          disabled={!task}
          onChange={(e) => setStep(e.target.value)}
          sx={{ minWidth: 200, flexGrow: { xs: 1, sm: 0 } }}
        >
          <MenuItem value="">{t('pipelines.run.allSteps')}</MenuItem>
          {steps.map((s) => (
            <MenuItem key={s.idx} value={s.name}>
              {s.name}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={<Switch checked={follow} onChange={(e) => setFollow(e.target.checked)} />}
          label={t('runLogs.follow')}
        />
        <Typography variant="body2" color="text.secondary" data-testid="log-state" data-state={state}>
          {t(`runLogs.state.${state}`)}
        </Typography>
        <Button
          startIcon={<FileDownload />}
          sx={{ ml: 'auto' }}
          onClick={() => {
            setDownloadFailed(false);
            void downloadApiFile(
              `pipelineruns/${encodeURIComponent(run.id)}/logs?${query}`,
              auth,
              `${[run.name, task, step].filter(Boolean).join('-')}.log`,
            ).then((status) => setDownloadFailed(status !== null));
          }}
        >
          {t('pipelines.run.download')}
        </Button>
      </Stack>
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      {downloadFailed && (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => setDownloadFailed(false)}>
          {t('runLogs.downloadFailed')}
        </Alert>
      )}
      <LogTerminal
        ref={terminal}
        follow={follow}
        label={t('pipelines.run.logs')}
        emptyText={t('pipelines.run.noLogs')}
        onScrolledUp={() => setFollow(false)}
      />
      <Box
        component="form"
        role="search"
        sx={{ mt: 2 }}
        onSubmit={(e) => {
          e.preventDefault();
          runSearch();
        }}
      >
        <TextField
          size="small"
          fullWidth
          label={t('runLogs.search')}
          value={q}
          onChange={(e) => setQ(e.target.value)}
          slotProps={{
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <Button type="submit" size="small" startIcon={<Search />} disabled={!q.trim()}>
                    {t('runLogs.searchButton')}
                  </Button>
                </InputAdornment>
              ),
            },
          }}
        />
      </Box>
      {searched.isFetching && (
        <Typography variant="body2" sx={{ mt: 1 }}>
          {t('runLogs.searching')}
        </Typography>
      )}
      {searched.isError && !searched.isFetching && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {t('runLogs.searchFailed')}
        </Alert>
      )}
      {searched.data && !searched.isFetching && (
        <Box sx={{ mt: 1 }} data-testid="log-search-results">
          <Typography variant="body2" color="text.secondary">
            {searched.data.total === 0
              ? t('runLogs.noMatches')
              : t('runLogs.matches', { count: searched.data.total })}
            {searched.data.total > SEARCH_PAGE ? ` ${t('runLogs.showingFirst', { count: SEARCH_PAGE })}` : ''}
          </Typography>
          <List dense sx={{ maxHeight: 240, overflow: 'auto' }} dir="ltr">
            {searched.data.matches.map((m) => (
              <ListItemButton
                key={`${m.task}/${m.line}`}
                onClick={() => {
                  setFollow(false);
                  setTask(m.task);
                  setTimeout(() => terminal.current?.jumpTo(m.line), 0);
                }}
                aria-label={t('runLogs.jump', { task: m.task, line: m.line })}
              >
                <Typography
                  component="span"
                  variant="body2"
                  sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
                >
                  {`${m.task}/${m.step}:${m.line}  ${stripAnsi(m.text)}`}
                </Typography>
              </ListItemButton>
            ))}
          </List>
        </Box>
      )}
    </Box>
  );
}
