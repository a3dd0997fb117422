import Source from '@mui/icons-material/Source';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { REPOSITORY_KINDS, type Repository, type RepositoryKind } from '@slipway/contracts';
import { timeColumn } from '../../ui/columns';
import { ListSearch } from '../../ui/ListSearch';
import type { Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { formatTime } from '../../ui/format';
import { listStates } from '../../ui/list-states';
import { SelectField } from '../../ui/SelectField';
import { TableSection } from '../../ui/TableSection';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useListParams } from '../../ui/useListParams';
import { ListAreaPage } from '../access/ListAreaPage';
import { CreateButton } from '../access/PermissionActions';
import { useRepositoryPageQuery } from './api';
import { KindChip } from './KindChip';
import { NewRepositoryDialog } from './NewRepositoryDialog';

/**
 * Repositories (spec §2): the workspace's hosted git repositories and the external ones it clones
 * from, searched by name, filtered by kind, sorted and paged by the server.
 */
export default function RepositoriesPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('repositories.title'));
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [kind, setKind] = useState<RepositoryKind | ''>('');
  const [creating, setCreating] = useState(false);
  const listParams = useListParams({ sort: { key: 'name', order: 'asc' } });
  const name = search.trim();
  const list = useRepositoryPageQuery({
    ...listParams.params,
    ...(name ? { name } : {}),
    ...(kind ? { repository_type_id: kind } : {}),
  });
  const filtered = Boolean(name || kind);

  const columns: Column<Repository>[] = [
    {
      id: 'name',
      header: t('repositories.columns.name'),
      sortKey: 'name',
      cell: (r) => r.name,
      sx: { overflowWrap: 'anywhere' },
    },
    {
      id: 'kind',
      header: t('repositories.columns.kind'),
      sortKey: 'kind',
      cell: (r) => <KindChip kind={r.kind} />,
    },
    {
      id: 'defaultBranch',
      header: t('repositories.columns.defaultBranch'),
      cell: (r) => <bdi dir="ltr">{r.defaultBranch}</bdi>,
      sx: { fontFamily: 'monospace', overflowWrap: 'anywhere' },
      hideBelow: 'sm',
    },
    timeColumn<Repository>(
      'lastPush',
      t('repositories.columns.lastPush'),
      (r) => r.lastPushAt,
      i18n.language,
      {
        sortKey: 'lastPushAt',
        hideBelow: 'md',
        cell: (r) =>
          r.kind === 'hosted'
            ? formatTime(r.lastPushAt, i18n.language) || t('repositories.never')
            : t('repositories.notApplicable'),
      },
    ),
    timeColumn<Repository>('created', t('repositories.columns.created'), (r) => r.createdAt, i18n.language, {
      sortKey: 'createdAt',
      hideBelow: 'sm',
    }),
  ];

  const createButton = (
    <CreateButton permission="repositories:create" onClick={() => setCreating(true)}>
      {t('repositories.create')}
    </CreateButton>
  );
  const filters = (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
      <ListSearch
        label={t('repositories.search')}
        value={search}
        onSearch={setSearch}
        paging={listParams.paging}
      />
      <SelectField
        size="small"
        id="repository-kind-filter"
        label={t('repositories.kindFilter')}
        value={kind}
        onChange={(e) => {
          setKind(e.target.value as RepositoryKind | '');
          listParams.paging.setPage(0);
        }}
        none={t('repositories.allKinds')}
        options={REPOSITORY_KINDS.map((k) => ({ value: k, label: t(`repositories.kinds.${k}`) }))}
        sx={{ flex: '0 1 12rem', minWidth: 160 }}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      />
    </Box>
  );

  return (
    <ListAreaPage
      id="repositories"
      title={t('repositories.title')}
      create={{
        permission: 'repositories:create',
        label: t('repositories.create'),
        onClick: () => setCreating(true),
      }}
      list={
        <>
          {filters}
          <TableSection
            id="repositories-list-title"
            title={t('repositories.title')}
            columns={columns}
            rows={list.data?.rows}
            getRowId={(r) => r.id}
            rowHref={(r) => `/repositories/${r.id}`}
            rowTestId="repository-row"
            {...listStates(list, t('repositories.loadError'), {
              empty: filtered ? (
                <EmptyState icon={Source} title={t('repositories.noMatchTitle')}>
                  <Typography color="text.secondary">{t('repositories.noMatchBody')}</Typography>
                </EmptyState>
              ) : (
                <EmptyState icon={Source} title={t('repositories.emptyTitle')} action={createButton}>
                  <Typography color="text.secondary">{t('repositories.emptyBody')}</Typography>
                </EmptyState>
              ),
              ...listParams.table,
              pagerIfNeeded: true,
            })}
          />
        </>
      }
    >
      {creating ? (
        <NewRepositoryDialog
          onClose={() => setCreating(false)}
          onCreated={(created) => void navigate(`/repositories/${created.id}`)}
        />
      ) : null}
    </ListAreaPage>
  );
}
