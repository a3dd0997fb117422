import { useTranslation } from 'react-i18next';
import type { ConfigMap } from '@slipway/contracts';
import { DataTable, type Column, type TableStates } from '../../ui/DataTable';
import { PermissionButton } from '../access/Can';
import { formatTime } from '../../ui/format';

/** Config maps as rows: name, description, keys and when it last changed, with edit and delete. */
export function ConfigMapsTable({
  configMaps,
  states,
  onEdit,
  onDelete,
}: {
  configMaps: ConfigMap[] | undefined;
  /** The list's loading, error and empty states and its pager. */
  states?: TableStates;
  onEdit: (configMap: ConfigMap) => void;
  onDelete: (configMap: ConfigMap) => void;
}) {
  const { t, i18n } = useTranslation();
  // On a phone the description and the time of the last change give their room to the rest.
  const columns: Column<ConfigMap>[] = [
    {
      id: 'name',
      header: t('configMapsPage.columns.name'),
      sortKey: 'name',
      cell: (c) => c.name,
      sx: { wordBreak: 'break-word' },
    },
    {
      id: 'description',
      header: t('configMapsPage.columns.description'),
      cell: (c) => c.description,
      hideBelow: 'sm',
    },
    {
      id: 'keys',
      header: t('configMapsPage.columns.keys'),
      cell: (c) => Object.keys(c.data).sort().join(', '),
      sx: { fontFamily: 'monospace', wordBreak: 'break-word' },
    },
    {
      id: 'updated',
      sortKey: 'updatedAt',
      header: t('configMapsPage.columns.updated'),
      cell: (c) => formatTime(c.updatedAt, i18n.language),
      hideBelow: 'sm',
      sx: { whiteSpace: 'nowrap' },
    },
    {
      id: 'actions',
      header: t('configMapsPage.columns.actions'),
      align: 'end',
      sx: { whiteSpace: 'nowrap' },
      cell: (c) => (
        <>
          <PermissionButton size="small" permission="secrets:edit" onClick={() => onEdit(c)}>
            {t('configMapsPage.edit')}
          </PermissionButton>
          <PermissionButton
            size="small"
            color="error"
            permission="secrets:delete"
            onClick={() => onDelete(c)}
          >
            {t('configMapsPage.delete')}
          </PermissionButton>
        </>
      ),
    },
  ];
  return (
    <DataTable
      aria-label={t('configMapsPage.title')}
      columns={columns}
      rows={configMaps}
      getRowId={(c) => c.id}
      rowTestId="config-map-row"
      {...states}
    />
  );
}
