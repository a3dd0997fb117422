import { useTranslation } from 'react-i18next';
import type { Deployment } from '@slipway/contracts';
import { StatusChip, type ChipColor } from '../../ui/StatusChip';

const COLOR: Record<Deployment['health'], ChipColor> = {
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
    <StatusChip
      status={health}
      colors={COLOR}
      label={t(`environments.health.${health}`)}
      testId="health-chip"
      attribute="health"
    />
  );
}
