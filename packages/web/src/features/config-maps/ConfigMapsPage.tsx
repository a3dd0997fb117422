import Tune from '@mui/icons-material/Tune';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConfigMap } from '@slipway/contracts';
import { EmptyState } from '../../ui/EmptyState';
import { listStates } from '../../ui/list-states';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { useListParams } from '../../ui/useListParams';
import { ListAreaPage } from '../access/ListAreaPage';
import { useConfigMapsQuery, useDeleteConfigMapMutation } from './api';
import { ConfigMapDialog } from './ConfigMapDialog';
import { ConfigMapsTable } from './ConfigMapsTable';

/** Config maps: plain values (shown, unlike secrets) that steps read as env or as files. */
export default function ConfigMapsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('configMapsPage.title'));
  const listParams = useListParams({ sort: { key: 'name', order: 'asc' } });
  const list = useConfigMapsQuery(listParams.params);
  const [editing, setEditing] = useState<ConfigMap | 'new' | null>(null);
  const deletion = useConfirmDelete(useDeleteConfigMapMutation(), (configMap: ConfigMap) => ({
    title: t('configMapsPage.deleteTitle', { name: configMap.name }),
    body: t('configMapsPage.deleteBody'),
    confirmLabel: t('configMapsPage.delete'),
  }));
  return (
    <ListAreaPage
      id="configMaps"
      testId="config-maps-page"
      title={t('configMapsPage.title')}
      create={{
        permission: 'secrets:create',
        label: t('configMapsPage.newConfigMap'),
        onClick: () => setEditing('new'),
      }}
      list={
        <ConfigMapsTable
          configMaps={list.data?.rows}
          states={listStates(list, t('configMapsPage.loadError'), {
            empty: (
              <EmptyState icon={Tune} title={t('configMapsPage.empty')}>
                {t('configMapsPage.emptyBody')}
              </EmptyState>
            ),
            ...listParams.table,
          })}
          onEdit={setEditing}
          onDelete={deletion.ask}
        />
      }
    >
      {editing ? (
        <ConfigMapDialog
          key={editing === 'new' ? 'new' : editing.id}
          configMap={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {deletion.dialog}
    </ListAreaPage>
  );
}
