import Delete from '@mui/icons-material/Delete';
import Edit from '@mui/icons-material/Edit';
import Layers from '@mui/icons-material/Layers';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Environment } from '@slipway/contracts';
import type { Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { listStates } from '../../ui/list-states';
import { TableSection } from '../../ui/TableSection';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useListParams } from '../../ui/useListParams';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { Can } from '../access/Can';
import { ListAreaPage } from '../access/ListAreaPage';
import { ClusterStatusChip } from '../clusters/ClusterStatusChip';
import { useDeleteEnvironmentMutation, useEnvironmentsQuery } from './api';
import { EnvironmentDialog } from './EnvironmentDialog';

const PAGE_SIZE = 10;

/** Environments: where things are deployed, each a namespace on one of the workspace's clusters. */
export default function EnvironmentsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('environments.title'));
  const listParams = useListParams({ sizes: [PAGE_SIZE], sort: { key: 'createdAt', order: 'asc' } });
  const [editing, setEditing] = useState<Environment | 'new' | null>(null);
  const deletion = useConfirmDelete(useDeleteEnvironmentMutation(), (environment: Environment) => ({
    title: t('environments.deleteTitle', { name: environment.name }),
    body: t('environments.deleteBody'),
  }));
  const list = useEnvironmentsQuery(listParams.params);

  const columns: Column<Environment>[] = [
    {
      id: 'name',
      header: t('environments.columns.name'),
      sortKey: 'name',
      cell: (e) => (
        <Link component={RouterLink} to={`/environments/${e.id}`}>
          {e.name}
        </Link>
      ),
    },
    {
      id: 'type',
      header: t('environments.columns.type'),
      sortKey: 'type',
      cell: (e) => t(`environments.types.${e.type}`),
      hideBelow: 'sm',
    },
    {
      id: 'cluster',
      header: t('environments.columns.cluster'),
      cell: (e) =>
        e.clusterId && e.clusterName ? (
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <Link component={RouterLink} to={`/clusters/${e.clusterId}`}>
              {e.clusterName}
            </Link>
            {e.clusterStatus ? <ClusterStatusChip status={e.clusterStatus} /> : null}
          </Box>
        ) : (
          <Typography color="text.secondary" variant="body2">
            {t('environments.noCluster')}
          </Typography>
        ),
    },
    {
      id: 'namespace',
      header: t('environments.columns.namespace'),
      cell: (e) => e.namespace ?? '—',
      hideBelow: 'sm',
    },
    {
      id: 'description',
      header: t('environments.columns.description'),
      cell: (e) => e.description,
      hideBelow: 'md',
    },
    {
      id: 'actions',
      header: t('common.actions'),
      align: 'end',
      cell: (e) => (
        <>
          <Can permission="environments:edit">
            {(allowed) => (
              <IconButton
                aria-label={`${t('common.edit')} ${e.name}`}
                disabled={!allowed}
                onClick={() => setEditing(e)}
              >
                <Edit fontSize="small" />
              </IconButton>
            )}
          </Can>
          <Can permission="environments:delete">
            {(allowed) => (
              <IconButton
                aria-label={`${t('common.delete')} ${e.name}`}
                disabled={!allowed}
                onClick={() => deletion.ask(e)}
              >
                <Delete fontSize="small" />
              </IconButton>
            )}
          </Can>
        </>
      ),
    },
  ];
  return (
    <ListAreaPage
      id="environments"
      title={t('environments.title')}
      create={{
        permission: 'environments:create',
        label: t('environments.create'),
        onClick: () => setEditing('new'),
      }}
      list={
        <TableSection
          id="environments-list-title"
          title={t('environments.title')}
          columns={columns}
          rows={list.data?.rows}
          getRowId={(e) => e.id}
          rowTestId="environment-row"
          {...listStates(list, t('environments.loadError'), {
            empty: (
              <EmptyState icon={Layers} title={t('environments.noEnvironments')}>
                {t('environments.noEnvironmentsBody')}
              </EmptyState>
            ),
            ...listParams.table,
            pagerIfNeeded: true,
          })}
        />
      }
    >
      {editing ? (
        <EnvironmentDialog
          environment={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {deletion.dialog}
    </ListAreaPage>
  );
}
