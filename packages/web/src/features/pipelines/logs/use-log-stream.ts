import { useEffect, useRef, useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { wsBaseUrl } from '../../../app/endpoints';
import { useLazyRunLogsQuery } from '../api';
import { plainText, stripAnsi, terminalText } from './log-format';
import { LogStreamClient } from './log-stream-client';

/** Where the lines go (the terminal). */
export interface LogSink {
  write(terminal: string, plain: string, lines: number): void;
  reset(): void;
}

export type LogStreamState = 'connecting' | 'live' | 'polling' | 'ended' | 'error';

/** How often the HTTP fallback asks while the run goes on. */
export const LOG_POLL_MS = 1000;

/**
 * Follows a run's log (whole run, a task, or a step) over the live WebSocket into `sink`; where a
 * socket cannot be opened, asks the plain-text endpoint from the last offset every second instead.
 */
export function useLogStream(
  sink: React.RefObject<LogSink | null>,
  runId: string,
  task: string,
  step: string,
  finished: boolean,
): { state: LogStreamState; error: string | null } {
  const auth = useAppSelector((s) => s.auth);
  const [fetchLogs] = useLazyRunLogsQuery();
  const [state, setState] = useState<LogStreamState>('connecting');
  const [error, setError] = useState<string | null>(null);
  const finishedRef = useRef(finished);
  finishedRef.current = finished;
  const credentials = { authorization: auth.token, workspace: auth.projectId, fingerprint: auth.fingerprint };
  const credentialsRef = useRef(credentials);
  credentialsRef.current = credentials;

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const wholeRun = !task;
    sink.current?.reset();
    setState('connecting');
    setError(null);

    const poll = () => {
      setState('polling');
      let offset = 0;
      const tick = async () => {
        const endedBefore = finishedRef.current;
        try {
          const chunk = await fetchLogs({
            id: runId,
            task: task || undefined,
            step: step || undefined,
            offset,
          }).unwrap();
          if (cancelled) return;
          if (chunk.text) {
            const lines = chunk.text.endsWith('\n')
              ? chunk.text.slice(0, -1).split('\n')
              : chunk.text.split('\n');
            sink.current?.write(
              lines.map((l) => `${l}\r\n`).join(''),
              lines.map((l) => `${stripAnsi(l)}\n`).join(''),
              lines.length,
            );
          }
          offset = chunk.next;
        } catch {
          // try again at the next tick
        }
        if (cancelled) return;
        if (endedBefore) setState('ended');
        else timer = setTimeout(() => void tick(), LOG_POLL_MS);
      };
      void tick();
    };

    const client = new LogStreamClient(
      {
        wsBase: wsBaseUrl(),
        runId,
        task: task || undefined,
        step: step || undefined,
        credentials: credentialsRef.current,
      },
      {
        onLines(taskName, lines) {
          if (cancelled) return;
          setState('live');
          sink.current?.write(
            terminalText(taskName, lines, wholeRun),
            plainText(taskName, lines, wholeRun),
            lines.length,
          );
        },
        onEnd() {
          if (!cancelled) setState('ended');
        },
        onError(message) {
          if (cancelled) return;
          setError(message);
          setState('error');
        },
        onUnavailable() {
          if (!cancelled) poll();
        },
      },
    );
    client.start();
    return () => {
      cancelled = true;
      clearTimeout(timer);
      client.stop();
    };
  }, [runId, task, step, fetchLogs, sink]);

  return { state, error };
}
