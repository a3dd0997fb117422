import Key from '@mui/icons-material/Key';
import Chip from '@mui/material/Chip';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Secret } from '@slipway/contracts';
import { AreaPage } from '../../ui/AreaPage';
import { timeColumn } from '../../ui/columns';
import { EmptyState } from '../../ui/EmptyState';
import { listStates } from '../../ui/list-states';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useListParams } from '../../ui/useListParams';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { CreateButton } from '../access/PermissionActions';
import { useDeleteSecretMutation, useSecretsQuery } from './api';
import { KeyValueTable } from './KeyValueTable';
import { SecretDialog } from './SecretDialog';
import { VariablesList } from './VariablesList';

/** Secrets (values write-only, never shown again) and, in a second tab, variables. */
export default function SecretsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('secretsPage.title'));
  const [tab, setTab] = useState<'secrets' | 'variables'>('secrets');
  const [editing, setEditing] = useState<Secret | 'new' | null>(null);
  return (
    <AreaPage
      id="secrets"
      testId="secrets-page"
      title={t('secretsPage.title')}
      actions={
        tab === 'secrets' ? (
          <CreateButton permission="secrets:create" onClick={() => setEditing('new')}>
            {t('secretsPage.newSecret')}
          </CreateButton>
        ) : null
      }
    >
      <Tabs value={tab} onChange={(_e, v: typeof tab) => setTab(v)}>
        <Tab value="secrets" label={t('secretsPage.secretsTab')} />
        <Tab value="variables" label={t('secretsPage.variablesTab')} />
      </Tabs>
      {tab === 'secrets' ? <SecretsList onEdit={setEditing} /> : <VariablesList />}
      {editing ? (
        <SecretDialog
          key={editing === 'new' ? 'new' : editing.id}
          secret={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </AreaPage>
  );
}

/** The secrets as rows, sortable by name and last change; type, description and time give way on a phone. */
function SecretsList({ onEdit }: { onEdit: (s: Secret) => void }) {
  const { t, i18n } = useTranslation();
  const listParams = useListParams({ sort: { key: 'name', order: 'asc' } });
  const deletion = useConfirmDelete(useDeleteSecretMutation(), (row: Secret) => ({
    title: t('secretsPage.deleteTitle', { name: row.name }),
    body: t('secretsPage.deleteSecretBody'),
    confirmLabel: t('secretsPage.delete'),
  }));
  const list = useSecretsQuery(listParams.params);
  return (
    <KeyValueTable<Secret>
      label={t('secretsPage.secretsTab')}
      rows={list.data?.rows}
      rowTestId="secret-row"
      columns={[
        {
          id: 'name',
          header: t('secretsPage.columns.name'),
          sortKey: 'name',
          cell: (s) => (
            <>
              {s.name} {s.global ? <Chip size="small" label={t('secretsPage.globalChip')} /> : null}
            </>
          ),
        },
        {
          id: 'type',
          header: t('secretsPage.columns.type'),
          cell: (s) => t(`secretsPage.types.${s.type}`),
          hideBelow: 'sm',
        },
        {
          id: 'keys',
          header: t('secretsPage.columns.keys'),
          cell: (s) => s.keys.join(', '),
          sx: { fontFamily: 'monospace' },
        },
        {
          id: 'description',
          header: t('secretsPage.columns.description'),
          cell: (s) => s.description,
          hideBelow: 'sm',
        },
        timeColumn<Secret>('updated', t('secretsPage.columns.updated'), (s) => s.updatedAt, i18n.language, {
          sortKey: 'updatedAt',
          hideBelow: 'sm',
        }),
      ]}
      onEdit={onEdit}
      onDelete={deletion.ask}
      states={listStates(list, t('secretsPage.loadError'), {
        empty: (
          <EmptyState icon={Key} title={t('secretsPage.noSecrets')}>
            {t('secretsPage.noSecretsBody')}
          </EmptyState>
        ),
        ...listParams.table,
      })}
    >
      {deletion.dialog}
    </KeyValueTable>
  );
}
