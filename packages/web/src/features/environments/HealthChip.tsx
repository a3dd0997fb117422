import type { Deployment } from '@slipway/contracts';
import { TranslatedStatusChip, type ChipColor } from '../../ui/StatusChip';

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
  return (
    <TranslatedStatusChip
      status={health}
      colors={COLOR}
      labels="environments.health"
      testId="health-chip"
      attribute="health"
    />
  );
}
