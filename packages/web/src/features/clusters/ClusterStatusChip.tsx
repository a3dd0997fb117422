import type { ClusterStatus } from '@slipway/contracts';
import { TranslatedStatusChip, type ChipColor } from '../../ui/StatusChip';

const COLOR: Record<ClusterStatus, ChipColor> = {
  in_creation: 'info',
  creation_failed: 'error',
  attaching: 'info',
  active: 'success',
  not_active: 'warning',
  detached: 'default',
};

/** A cluster agent's status (spec §4): active, not active, in progress, in creation, creation failed. */
export function ClusterStatusChip({ status }: { status: ClusterStatus }) {
  return (
    <TranslatedStatusChip
      status={status}
      colors={COLOR}
      labels="clusters.status"
      testId="cluster-status"
      attribute="status"
    />
  );
}
