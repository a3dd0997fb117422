import Add from '@mui/icons-material/Add';
import DataObject from '@mui/icons-material/DataObject';
import Box from '@mui/material/Box';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Variable } from '@slipway/contracts';
import { DataTable, queryStates, type Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { PermissionButton } from '../access/Can';
import { useDeleteVariableMutation, useVariablesQuery } from './api';
import { VariableDialog } from './VariableDialog';

/** The workspace's variables: plain name = value settings, listed, created, changed, deleted. */
export function VariablesList() {
  const { t } = useTranslation();
  const list = useVariablesQuery();
  const [editing, setEditing] = useState<Variable | 'new' | null>(null);
  const deletion = useConfirmDelete(useDeleteVariableMutation(), (row: Variable) => ({
    title: t('secretsPage.deleteTitle', { name: row.name }),
    body: t('secretsPage.deleteVariableBody'),
    confirmLabel: t('secretsPage.delete'),
  }));

  const columns: Column<Variable>[] = [
    {
      id: 'name',
      header: t('secretsPage.columns.name'),
      cell: (v) => v.name,
      sx: { fontFamily: 'monospace' },
    },
    {
      id: 'value',
      header: t('secretsPage.columns.value'),
      cell: (v) => v.value,
      sx: { fontFamily: 'monospace', wordBreak: 'break-all' },
    },
    {
      id: 'description',
      header: t('secretsPage.columns.description'),
      cell: (v) => v.description,
      hideBelow: 'sm',
    },
    {
      id: 'actions',
      header: t('secretsPage.columns.actions'),
      align: 'end',
      sx: { whiteSpace: 'nowrap' },
      cell: (v) => (
        <>
          <PermissionButton size="small" permission="secrets:edit" onClick={() => setEditing(v)}>
            {t('secretsPage.edit')}
          </PermissionButton>
          <PermissionButton
            size="small"
            color="error"
            permission="secrets:delete"
            onClick={() => deletion.ask(v)}
          >
            {t('secretsPage.delete')}
          </PermissionButton>
        </>
      ),
    },
  ];
  const body = (
    <DataTable
      aria-label={t('secretsPage.variablesTab')}
      columns={columns}
      rows={list.data}
      getRowId={(v) => v.id}
      rowTestId="variable-row"
      {...queryStates(list, t('secretsPage.variablesLoadError'))}
      skeletonRows={5}
      empty={<EmptyState icon={DataObject} title={t('secretsPage.noVariables')} />}
    />
  );

  return (
    <Box>
      <Box sx={{ display: 'flex', mb: 2 }}>
        <PermissionButton
          permission="secrets:create"
          variant="outlined"
          startIcon={<Add />}
          sx={{ ml: 'auto' }}
          onClick={() => setEditing('new')}
        >
          {t('secretsPage.newVariable')}
        </PermissionButton>
      </Box>
      {body}
      {editing ? (
        <VariableDialog
          key={editing === 'new' ? 'new' : editing.id}
          variable={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {deletion.dialog}
    </Box>
  );
}
