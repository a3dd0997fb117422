import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { Deployment } from '@slipway/contracts';

const COLOR: Record<Deployment['health'], 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  healthy: 'success',
  progressing: 'info',
  degraded: 'error',
  suspended: 'warning',
  missing: 'warning',
  unknown: 'default',
};

/** An application's health (spec §4): healthy, progressing, degraded, suspended, missing, unknown. */
export function HealthChip({ health }: { health: Deployment['health'] }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      data-testid="health-chip"
      data-health={health}
      color={COLOR[health]}
      label={t(`environments.health.${health}`)}
    />
  );
}
