import Inventory2 from '@mui/icons-material/Inventory2';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RegistryImage } from '@slipway/contracts';
import { AreaPage } from '../../ui/AreaPage';
import { ListSearch } from '../../ui/ListSearch';
import { timeColumn } from '../../ui/columns';
import type { Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { listStates } from '../../ui/list-states';
import { TableSection } from '../../ui/TableSection';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useListParams } from '../../ui/useListParams';
import { QuickSetupButton } from '../quick-setup/QuickSetupButton';
import { useRegistryImagesQuery } from './api';
import { formatSize } from './format';
import { ImageTagsDialog } from './ImageTagsDialog';
import { RegistryCard } from './RegistryCard';

/**
 * Registries (spec §2): Slipway's own registry, where the workspace's images go and how to push
 * there, then its images (searched, sorted and paged by the server), each opening its tags.
 * Outside registry providers come later.
 */
export default function RegistriesPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('registries.title'));
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<RegistryImage | null>(null);
  const listParams = useListParams({ sort: { key: 'lastPushedAt', order: 'desc' } });
  const name = search.trim();
  const list = useRegistryImagesQuery({ ...listParams.params, ...(name ? { name } : {}) });

  const columns: Column<RegistryImage>[] = [
    {
      id: 'image',
      header: t('registries.images.columns.image'),
      sortKey: 'name',
      cell: (image) => (
        <Link
          component="button"
          type="button"
          dir="ltr"
          aria-label={t('registries.images.open', { name: image.name })}
          onClick={() => setOpen(image)}
          sx={{ textAlign: 'start', overflowWrap: 'anywhere', fontFamily: 'monospace' }}
        >
          {image.name}
        </Link>
      ),
    },
    {
      id: 'tags',
      header: t('registries.images.columns.tags'),
      sortKey: 'tagCount',
      align: 'end',
      cell: (image) => image.tagCount.toLocaleString(i18n.language),
    },
    {
      id: 'size',
      header: t('registries.images.columns.size'),
      sortKey: 'size',
      align: 'end',
      hideBelow: 'md',
      cell: (image) => formatSize(image.size, i18n.language),
      sx: { whiteSpace: 'nowrap' },
    },
    timeColumn<RegistryImage>(
      'lastPushed',
      t('registries.images.columns.lastPushed'),
      (image) => image.lastPushedAt,
      i18n.language,
      { sortKey: 'lastPushedAt', hideBelow: 'sm' },
    ),
  ];

  return (
    <AreaPage id="registries" title={t('registries.title')}>
      <RegistryCard />
      <TableSection
        id="registry-images-title"
        title={t('registries.images.title')}
        columns={columns}
        rows={list.data?.rows}
        getRowId={(image) => image.name}
        rowTestId="image-row"
        {...listStates(list, t('registries.images.loadError'), {
          empty: name ? (
            <EmptyState icon={Inventory2} title={t('registries.images.noMatchTitle')}>
              <Typography color="text.secondary">{t('registries.images.noMatchBody')}</Typography>
            </EmptyState>
          ) : (
            <EmptyState
              icon={Inventory2}
              title={t('registries.images.emptyTitle')}
              action={<QuickSetupButton variant="contained" />}
            >
              <Typography color="text.secondary">{t('registries.images.emptyBody')}</Typography>
            </EmptyState>
          ),
          ...listParams.table,
          pagerIfNeeded: true,
        })}
        action={
          <ListSearch
            label={t('registries.images.search')}
            value={search}
            onSearch={setSearch}
            paging={listParams.paging}
          />
        }
      />
      <Typography variant="body2" color="text.secondary" data-testid="registry-providers-later">
        {t('registries.providersLater')}
      </Typography>
      {open ? <ImageTagsDialog image={open} onClose={() => setOpen(null)} /> : null}
    </AreaPage>
  );
}
