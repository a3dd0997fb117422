import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { podStreamFrameSchema } from '@slipway/contracts';
import { useAppSelector } from '../../app/hooks';
import { Button } from '../../ui/Button';
import { QueryPending } from '../../ui/QueryPending';
import { usePodLogsQuery } from './api';
import { openPodSocket } from './pod-socket';

const TAIL_LINES = 1000;

/** A pod container's log: the last lines, refreshed on demand, or followed live over a socket. */
export function PodLogs({
  clusterId,
  namespace,
  pod,
}: {
  clusterId: string;
  namespace: string;
  pod: string;
}) {
  const { t } = useTranslation();
  const auth = useAppSelector((s) => s.auth);
  const query = usePodLogsQuery({
    id: clusterId,
    namespace,
    pod,
    tailLines: TAIL_LINES,
  });
  const { data, isFetching, refetch } = query;
  const [follow, setFollow] = useState(false);
  const [live, setLive] = useState('');
  const pre = useRef<HTMLPreElement>(null);

  useEffect(() => {
    if (!follow) return;
    setLive('');
    const socket = openPodSocket(clusterId, 'logs', { namespace, pod, tailLines: String(TAIL_LINES) }, auth);
    socket.onmessage = (e) => {
      const frame = podStreamFrameSchema.safeParse(JSON.parse(String(e.data)));
      if (frame.success && frame.data.type === 'data')
        setLive((l) => l + (frame.data as { data: string }).data);
      if (frame.success && frame.data.type === 'end') setFollow(false);
    };
    return () => socket.close(1000);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [follow, clusterId, namespace, pod]);

  useEffect(() => {
    if (follow && pre.current) pre.current.scrollTop = pre.current.scrollHeight;
  }, [live, follow]);

  if (data === undefined) return <QueryPending query={query} what={t('clusters.browser.logsError')} />;
  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={2} alignItems="center">
        <FormControlLabel
          control={<Switch checked={follow} onChange={(e) => setFollow(e.target.checked)} />}
          label={t('clusters.browser.follow')}
        />
        <Button onClick={() => void refetch()} loading={isFetching} disabled={follow}>
          {t('clusters.browser.refresh')}
        </Button>
      </Stack>
      <Box
        component="pre"
        ref={pre}
        data-testid="pod-logs"
        sx={{
          m: 0,
          p: 1.5,
          maxHeight: 420,
          overflow: 'auto',
          bgcolor: '#1e1e1e',
          color: '#eee',
          fontSize: 13,
          borderRadius: 1,
        }}
      >
        {(follow ? live : data) || t('clusters.browser.noLogs')}
      </Box>
    </Stack>
  );
}
