import { useTranslation } from 'react-i18next';
import type { ConfigMap } from '@slipway/contracts';
import { timeColumn } from '../../ui/columns';
import type { TableStates } from '../../ui/DataTable';
import { KeyValueTable } from '../secrets/KeyValueTable';

/** Config maps as rows: name, description, keys and when it last changed, with edit and delete. */
export function ConfigMapsTable({
  configMaps,
  states,
  onEdit,
  onDelete,
}: {
  configMaps: ConfigMap[] | undefined;
  /** The list's loading, error and empty states and its pager. */
  states: TableStates;
  onEdit: (configMap: ConfigMap) => void;
  onDelete: (configMap: ConfigMap) => void;
}) {
  const { t, i18n } = useTranslation();
  // On a phone the description and the time of the last change give their room to the rest.
  return (
    <KeyValueTable<ConfigMap>
      label={t('configMapsPage.title')}
      rows={configMaps}
      rowTestId="config-map-row"
      columns={[
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
        timeColumn<ConfigMap>(
          'updated',
          t('configMapsPage.columns.updated'),
          (c) => c.updatedAt,
          i18n.language,
          {
            sortKey: 'updatedAt',
            hideBelow: 'sm',
          },
        ),
      ]}
      onEdit={onEdit}
      onDelete={onDelete}
      states={states}
    />
  );
}
