import Apps from '@mui/icons-material/Apps';
import Delete from '@mui/icons-material/Delete';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { Application } from '@slipway/contracts';
import type { Column } from '../../ui/DataTable';
import { ListSearch } from '../../ui/ListSearch';
import { EmptyState } from '../../ui/EmptyState';
import { listStates } from '../../ui/list-states';
import { TableSection } from '../../ui/TableSection';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useListParams } from '../../ui/useListParams';
import { AreaPage } from '../../ui/AreaPage';
import { Can } from '../access/Can';
import { CreateButton } from '../access/PermissionActions';
import { HealthChip } from '../environments/HealthChip';
import { QuickSetupButton } from '../quick-setup/QuickSetupButton';
import { useApplicationsQuery, useDeleteApplicationMutation } from './api';

const PAGE_SIZE = 10;

/** The microservice library (spec §2 "Applications and microservices"): each application with its health. */
export default function ApplicationsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('applications.title'));
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const listParams = useListParams({ sizes: [PAGE_SIZE], sort: { key: 'name', order: 'asc' } });
  const list = useApplicationsQuery({
    ...listParams.params,
    ...(search.trim() ? { name: search.trim() } : {}),
  });
  const deletion = useConfirmDelete(useDeleteApplicationMutation(), (a: Application) => ({
    title: t('applications.deleteTitle', { name: a.name }),
    body: t('applications.deleteBody'),
  }));

  const columns: Column<Application>[] = [
    {
      id: 'name',
      header: t('applications.columns.name'),
      sortKey: 'name',
      cell: (a) => (
        <Link component={RouterLink} to={`/applications/${a.id}`} data-tour="microservice-overview-link">
          {a.name}
        </Link>
      ),
    },
    { id: 'health', header: t('applications.columns.health'), cell: (a) => <HealthChip health={a.health} /> },
    {
      id: 'environments',
      header: t('applications.columns.environments'),
      hideBelow: 'sm',
      cell: (a) => (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          {a.environments.map((e) => (
            <Typography key={e.environmentId} variant="body2" component="span" data-health={e.health}>
              {e.environmentName}
            </Typography>
          ))}
        </Box>
      ),
    },
    {
      id: 'service',
      header: t('applications.columns.service'),
      sortKey: 'serviceType',
      hideBelow: 'md',
      cell: (a) => `${a.serviceType} · ${a.port}`,
    },
    { id: 'image', header: t('applications.columns.image'), hideBelow: 'md', cell: (a) => a.image },
    {
      id: 'actions',
      header: t('common.actions'),
      align: 'end',
      cell: (a) => (
        <Can permission="applications:delete">
          {(allowed) => (
            <IconButton
              aria-label={`${t('common.delete')} ${a.name}`}
              disabled={!allowed}
              onClick={() => deletion.ask(a)}
            >
              <Delete fontSize="small" />
            </IconButton>
          )}
        </Can>
      ),
    },
  ];

  return (
    <AreaPage
      id="applications"
      title={t('applications.title')}
      actions={
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <QuickSetupButton />
          <CreateButton
            permission="applications:create"
            onClick={() => void navigate('/applications/new')}
            data-tour="microservice-initiate"
          >
            {t('applications.create')}
          </CreateButton>
        </Box>
      }
    >
      <ListSearch
        label={t('applications.search')}
        value={search}
        onSearch={setSearch}
        paging={listParams.paging}
        sx={{ mb: 2, maxWidth: 360, width: '100%' }}
      />
      <TableSection
        id="applications-list-title"
        title={t('applications.title')}
        columns={columns}
        rows={list.data?.rows}
        getRowId={(a) => a.id}
        rowTestId="application-row"
        {...listStates(list, t('applications.loadError'), {
          empty: (
            <EmptyState
              icon={Apps}
              title={t('applications.empty')}
              action={search.trim() ? undefined : <QuickSetupButton variant="contained" />}
            >
              {search.trim() ? t('applications.noMatch') : t('applications.emptyBody')}
            </EmptyState>
          ),
          ...listParams.table,
          pagerIfNeeded: true,
        })}
      />
      {deletion.dialog}
    </AreaPage>
  );
}
