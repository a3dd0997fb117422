import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type Cluster } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { useClusterQuery } from './api';
import { attachTiming } from './attach-timing';

/**
 * Attach step 3: connecting until the agent's first heartbeat makes the cluster active; if none
 * comes in time, the cluster is not connected and can be attached again (spec §4, §8).
 */
export function WaitForHeartbeat({
  clusterId,
  onConnected,
  onAttachAgain,
  attachingAgain,
}: {
  clusterId: string;
  onConnected: (cluster: Cluster) => void;
  onAttachAgain: () => void;
  attachingAgain: boolean;
}) {
  const { t } = useTranslation();
  const [timedOut, setTimedOut] = useState(false);
  const { data } = useClusterQuery(clusterId, {
    pollingInterval: timedOut ? 0 : attachTiming.pollMs,
    refetchOnMountOrArgChange: true,
  });
  useEffect(() => {
    const timer = setTimeout(() => setTimedOut(true), attachTiming.connectWaitMs);
    return () => clearTimeout(timer);
  }, []);
  const connected = data?.status === 'active';
  useEffect(() => {
    if (connected && data) onConnected(data);
  }, [connected, data, onConnected]);

  if (timedOut && !connected)
    return (
      <Stack spacing={2} data-testid="not-connected">
        <Alert severity="error">{MESSAGES.clusterNotConnected}</Alert>
        <Box>
          <Button variant="contained" onClick={onAttachAgain} loading={attachingAgain}>
            {t('clusters.wait.attachAgain')}
          </Button>
        </Box>
      </Stack>
    );
  return (
    <Stack
      spacing={2}
      alignItems="center"
      sx={{ py: 3 }}
      data-testid="connecting"
      data-tour="cluster-attach-heartbeat"
      role="status"
    >
      <CircularProgress aria-label={t('clusters.wait.connecting')} />
      <Typography variant="h6" component="p">
        {t('clusters.wait.connecting')}
      </Typography>
      <Typography color="text.secondary">{t('clusters.wait.connectingBody')}</Typography>
    </Stack>
  );
}
