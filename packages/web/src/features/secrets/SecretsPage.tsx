import Add from '@mui/icons-material/Add';
import Key from '@mui/icons-material/Key';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Secret } from '@slipway/contracts';
import { DataTable, queryStates, type Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { usePaging } from '../../ui/ListPager';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { PermissionButton } from '../access/Can';
import { formatTime } from '../../ui/format';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { useDeleteSecretMutation, useSecretsQuery } from './api';
import { SecretDialog } from './SecretDialog';
import { VariablesList } from './VariablesList';

/** Secrets (values write-only, never shown again) and, in a second tab, variables. */
export default function SecretsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('secretsPage.title'));
  const [tab, setTab] = useState<'secrets' | 'variables'>('secrets');
  const [editing, setEditing] = useState<Secret | 'new' | null>(null);
  return (
    <Box data-testid="secrets-page" sx={{ maxWidth: 1200 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1">
          {t('secretsPage.title')}
        </Typography>
        {tab === 'secrets' ? (
          <PermissionButton
            permission="secrets:create"
            variant="contained"
            startIcon={<Add />}
            sx={{ ml: 'auto' }}
            onClick={() => setEditing('new')}
          >
            {t('secretsPage.newSecret')}
          </PermissionButton>
        ) : null}
      </Box>
      <Tabs value={tab} onChange={(_e, v: typeof tab) => setTab(v)} sx={{ mb: 2 }}>
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
    </Box>
  );
}

function SecretsList({ onEdit }: { onEdit: (s: Secret) => void }) {
  const { t, i18n } = useTranslation();
  const paging = usePaging();
  const deletion = useConfirmDelete(useDeleteSecretMutation(), (row: Secret) => ({
    title: t('secretsPage.deleteTitle', { name: row.name }),
    body: t('secretsPage.deleteSecretBody'),
    confirmLabel: t('secretsPage.delete'),
  }));
  const list = useSecretsQuery(paging.range);
  const columns: Column<Secret>[] = [
    {
      id: 'name',
      header: t('secretsPage.columns.name'),
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
    {
      id: 'updated',
      header: t('secretsPage.columns.updated'),
      cell: (s) => formatTime(s.updatedAt, i18n.language),
      hideBelow: 'sm',
      sx: { whiteSpace: 'nowrap' },
    },
    {
      id: 'actions',
      header: t('secretsPage.columns.actions'),
      align: 'end',
      sx: { whiteSpace: 'nowrap' },
      cell: (s) => (
        <>
          <PermissionButton size="small" permission="secrets:edit" onClick={() => onEdit(s)}>
            {t('secretsPage.edit')}
          </PermissionButton>
          <PermissionButton
            size="small"
            color="error"
            permission="secrets:delete"
            onClick={() => deletion.ask(s)}
          >
            {t('secretsPage.delete')}
          </PermissionButton>
        </>
      ),
    },
  ];
  return (
    <DataTable
      aria-label={t('secretsPage.secretsTab')}
      columns={columns}
      rows={list.data?.rows}
      getRowId={(s) => s.id}
      rowTestId="secret-row"
      {...queryStates(list, t('secretsPage.loadError'))}
      skeletonRows={5}
      empty={
        <EmptyState icon={Key} title={t('secretsPage.noSecrets')}>
          {t('secretsPage.noSecretsBody')}
        </EmptyState>
      }
      paging={paging}
      total={list.data?.total}
    >
      {deletion.dialog}
    </DataTable>
  );
}
