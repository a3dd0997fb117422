import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { ClusterStatus } from '@slipway/contracts';

const COLOR: Record<ClusterStatus, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
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
    <Chip
      size="small"
      data-testid="cluster-status"
      data-status={status}
      color={COLOR[status]}
      label={t(`clusters.status.${status}`)}
    />
  );
}
