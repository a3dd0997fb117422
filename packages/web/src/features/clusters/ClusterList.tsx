import Hub from '@mui/icons-material/Hub';
import type { Cluster } from '@slipway/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { listStates } from '../../ui/list-states';
import { TableSection } from '../../ui/TableSection';
import { useListParams } from '../../ui/useListParams';
import { useClustersQuery } from './api';
import { ClusterStatusChip } from './ClusterStatusChip';
import { formatAt, orDash } from './format';

const PAGE_SIZE = 10;

/**
 * The workspace's clusters with their agent status and facts; a row opens the cluster. Sortable
 * by name, status and last heartbeat; on a phone only the name and status stay.
 */
export function ClusterList({ emptyAction }: { emptyAction?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const listParams = useListParams({ sizes: [PAGE_SIZE], sort: { key: 'name', order: 'asc' } });
  const list = useClustersQuery(listParams.params, { pollingInterval: 30_000 });
  const columns: Column<Cluster>[] = [
    { id: 'name', header: t('clusters.columns.name'), cell: (c) => c.name, primary: true, sortKey: 'name' },
    {
      id: 'type',
      header: t('clusters.columns.type'),
      cell: (c) => t(`clusters.types.${c.type}`),
      hideBelow: 'sm',
    },
    {
      id: 'status',
      header: t('clusters.columns.status'),
      cell: (c) => <ClusterStatusChip status={c.status} />,
      sortKey: 'status',
    },
    {
      id: 'version',
      header: t('clusters.columns.version'),
      cell: (c) => orDash(c.kubernetesVersion),
      hideBelow: 'md',
    },
    {
      id: 'nodes',
      header: t('clusters.columns.nodes'),
      cell: (c) => orDash(c.nodeCount),
      align: 'end',
      hideBelow: 'sm',
    },
    {
      id: 'vcpu',
      header: t('clusters.columns.vcpu'),
      cell: (c) => orDash(c.totalVcpu),
      align: 'end',
      hideBelow: 'sm',
    },
    {
      id: 'heartbeat',
      header: t('clusters.columns.heartbeat'),
      cell: (c) => formatAt(c.lastHeartbeatAt, i18n.language, t('clusters.detail.never')),
      sortKey: 'lastHeartbeatAt',
      hideBelow: 'sm',
    },
  ];
  return (
    <TableSection
      id="clusters-list-title"
      title={t('clusters.title')}
      columns={columns}
      rows={list.data?.rows}
      getRowId={(c) => c.id}
      rowHref={(c) => `/clusters/${c.id}`}
      rowTestId="cluster-row"
      {...listStates(list, t('clusters.loadError'), {
        empty: (
          <EmptyState icon={Hub} title={t('clusters.noClusters')} action={emptyAction}>
            {t('clusters.noClustersBody')}
          </EmptyState>
        ),
        ...listParams.table,
        pagerIfNeeded: true,
      })}
    />
  );
}
