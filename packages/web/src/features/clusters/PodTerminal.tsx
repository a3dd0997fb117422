import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { podStreamFrameSchema } from '@slipway/contracts';
import { useAppSelector } from '../../app/hooks';
import { openPodSocket } from './pod-socket';

/**
 * A terminal in a pod container (exec through the agent): xterm, loaded only when opened, wired to
 * the server's exec socket — keystrokes and the terminal's size go in, output comes out.
 */
export default function PodTerminal({
  clusterId,
  namespace,
  pod,
  container,
}: {
  clusterId: string;
  namespace: string;
  pod: string;
  container?: string;
}) {
  const { t } = useTranslation();
  const auth = useAppSelector((s) => s.auth);
  const host = useRef<HTMLDivElement>(null);
  const [ended, setEnded] = useState<string | null>(null);

  useEffect(() => {
    let disposed = false;
    const cleanups: (() => void)[] = [];
    void (async () => {
      const [{ Terminal }, { FitAddon }] = await Promise.all([
        import('@xterm/xterm'),
        import('@xterm/addon-fit'),
        import('@xterm/xterm/css/xterm.css'),
      ]);
      if (disposed || !host.current) return;
      const term = new Terminal({ fontSize: 13, cursorBlink: true, theme: { background: '#1e1e1e' } });
      const fit = new FitAddon();
      term.loadAddon(fit);
      term.open(host.current);
      try {
        fit.fit();
      } catch {
        // not laid out yet
      }
      const socket = openPodSocket(clusterId, 'exec', { namespace, pod, container }, auth);
      const sendSize = () => {
        if (socket.readyState === WebSocket.OPEN)
          socket.send(JSON.stringify({ type: 'resize', cols: term.cols, rows: term.rows }));
      };
      socket.onopen = () => {
        sendSize();
        term.focus();
      };
      socket.onmessage = (e) => {
        const frame = podStreamFrameSchema.safeParse(JSON.parse(String(e.data)));
        if (!frame.success) return;
        if (frame.data.type === 'data') term.write(frame.data.data);
        else setEnded(frame.data.error ?? t('clusters.browser.sessionEnded'));
      };
      socket.onclose = () => setEnded((was) => was ?? t('clusters.browser.sessionEnded'));
      const input = term.onData((data) => {
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'input', data }));
      });
      const resized = term.onResize(sendSize);
      const observer =
        typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => fit.fit());
      observer?.observe(host.current);
      cleanups.push(
        () => observer?.disconnect(),
        () => input.dispose(),
        () => resized.dispose(),
        () => socket.close(1000),
        () => term.dispose(),
      );
    })();
    return () => {
      disposed = true;
      for (const c of cleanups) c();
    };
    // The session belongs to this pod; credentials are read once when it opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [clusterId, namespace, pod, container]);

  return (
    <Box>
      {ended ? (
        <Alert severity="info" sx={{ mb: 1 }} data-testid="terminal-ended">
          {ended}
        </Alert>
      ) : null}
      <Box
        ref={host}
        data-testid="pod-terminal"
        sx={{ height: 400, bgcolor: '#1e1e1e', p: 1, borderRadius: 1 }}
      />
    </Box>
  );
}
