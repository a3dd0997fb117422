import { useTranslation } from 'react-i18next';
import type { ClusterStatus } from '@slipway/contracts';
import { StatusChip, type ChipColor } from '../../ui/StatusChip';

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
  const { t } = useTranslation();
  return (
    <StatusChip
      status={status}
      colors={COLOR}
      label={t(`clusters.status.${status}`)}
      testId="cluster-status"
      attribute="status"
    />
  );
}
