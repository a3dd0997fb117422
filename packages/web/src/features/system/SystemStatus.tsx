import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ReadyResponse } from '@slipway/contracts';
import { Skeleton } from '../../ui/Skeleton';
import { useHealthQuery, useReadinessQuery } from './api';

type Tone = 'ok' | 'bad';

/** Status text for the readiness answer; pure so it can be tested without a server. */
export function describeStatus(
  t: (key: string, values?: Record<string, unknown>) => string,
  version: string | undefined,
  readiness: { data?: ReadyResponse | undefined; errorStatus?: string | number | undefined },
): { text: string; tone: Tone } {
  const ready = readiness.data;
  if (ready) {
    const driver = t(`status.drivers.${ready.database.driver}`);
    const values = { version: version ?? '?', driver };
    return ready.status === 'ready'
      ? { text: t('status.ready', values), tone: 'ok' }
      : { text: t('status.notReady', values), tone: 'bad' };
  }
  return { text: t('status.unreachable', { status: readiness.errorStatus ?? '?' }), tone: 'bad' };
}

/** One line at the foot of the sidebar: server version, database and readiness, from the API. */
export function SystemStatus() {
  const { t } = useTranslation();
  const health = useHealthQuery();
  const readiness = useReadinessQuery(undefined, { pollingInterval: 60_000 });
  if (readiness.isLoading) return <Skeleton width={180} />;
  const error = readiness.error as { status?: string | number; data?: unknown } | undefined;
  const data = readiness.data ?? (error?.status === 503 ? (error.data as ReadyResponse) : undefined);
  const { text, tone } = describeStatus((k, v) => String(t(k, v as never)), health.data?.version, {
    data,
    errorStatus: error?.status,
  });
  return (
    <Box
      role="status"
      aria-label={t('status.label')}
      data-testid="system-status"
      sx={{ display: 'flex', alignItems: 'center', gap: 1 }}
    >
      <Box
        aria-hidden
        sx={{
          width: 8,
          height: 8,
          borderRadius: '50%',
          flex: 'none',
          bgcolor: tone === 'ok' ? 'success.main' : 'error.main',
        }}
      />
      <Typography variant="caption" color="text.secondary">
        {text}
      </Typography>
    </Box>
  );
}
