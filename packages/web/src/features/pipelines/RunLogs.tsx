import FileDownload from '@mui/icons-material/FileDownload';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PipelineRunDetail } from '@slipway/contracts';
import { useAppSelector } from '../../app/hooks';
import { Button } from '../../ui/Button';
import { downloadApiFile } from '../audit/download-csv';
import { isFinished, useLazyRunLogsQuery } from './api';

/** how often the logs are asked for while the run goes on */
export const LOG_POLL_MS = 1000;

/**
 * Follows a run's log lines (whole run, a task, or a step): asks from the last offset every
 * second until the run has finished, then once more, appending what comes back.
 */
export function useRunLogs(id: string, task: string, step: string, finished: boolean) {
  const [fetchLogs] = useLazyRunLogsQuery();
  const [text, setText] = useState('');
  const finishedRef = useRef(finished);
  finishedRef.current = finished;
  useEffect(() => {
    let cancelled = false;
    let offset = 0;
    let lastDone = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setText('');
    async function tick() {
      const endedBefore = finishedRef.current;
      try {
        const chunk = await fetchLogs({
          id,
          task: task || undefined,
          step: step || undefined,
          offset,
        }).unwrap();
        if (cancelled) return;
        if (chunk.text) setText((t) => t + chunk.text);
        offset = chunk.next;
      } catch {
        // try again at the next tick
      }
      if (cancelled) return;
      if (endedBefore) lastDone = true;
      if (!lastDone) timer = setTimeout(() => void tick(), LOG_POLL_MS);
    }
    void tick();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [id, task, step, fetchLogs]);
  return text;
}

/** The logs panel: task and step selection, the lines, auto-scroll and a download. */
export function RunLogs({ run }: { run: PipelineRunDetail }) {
  const { t } = useTranslation();
  const auth = useAppSelector((s) => s.auth);
  const [task, setTask] = useState('');
  const [step, setStep] = useState('');
  const text = useRunLogs(run.id, task, step, isFinished(run.status));
  const pre = useRef<HTMLPreElement>(null);
  const stick = useRef(true);
  const steps = run.taskRuns.find((tr) => tr.pipelineTask === task)?.steps ?? [];

  useEffect(() => {
    const el = pre.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [text]);

  const query = new URLSearchParams({ ...(task ? { task } : {}), ...(step ? { step } : {}) }).toString();
  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ mb: 2, flexWrap: 'wrap' }} alignItems="center">
        <TextField
          select
          size="small"
          label={t('pipelines.run.logTask')}
          value={task}
          onChange={(e) => {
            setTask(e.target.value);
            setStep('');
          }}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="">{t('pipelines.run.wholeRun')}</MenuItem>
          {run.taskRuns.map((tr) => (
            <MenuItem key={tr.id} value={tr.pipelineTask}>
              {tr.pipelineTask}
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
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="">{t('pipelines.run.allSteps')}</MenuItem>
          {steps.map((s) => (
            <MenuItem key={s.idx} value={s.name}>
              {s.name}
            </MenuItem>
          ))}
        </TextField>
        <Button
          startIcon={<FileDownload />}
          sx={{ ml: 'auto' }}
          onClick={() =>
            void downloadApiFile(
              `pipelineruns/${run.id}/logs${query ? `?${query}` : ''}`,
              auth,
              `${[run.name, task, step].filter(Boolean).join('-')}.log`,
            )
          }
        >
          {t('pipelines.run.download')}
        </Button>
      </Stack>
      <Box
        component="pre"
        ref={pre}
        data-testid="run-logs"
        aria-label={t('pipelines.run.logs')}
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
        sx={{
          m: 0,
          p: 2,
          height: 420,
          overflow: 'auto',
          fontFamily: 'monospace',
          fontSize: 13,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
          bgcolor: 'grey.900',
          color: 'grey.100',
          borderRadius: 1,
        }}
      >
        {text || t('pipelines.run.noLogs')}
      </Box>
    </Box>
  );
}
