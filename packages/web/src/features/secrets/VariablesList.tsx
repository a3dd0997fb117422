import Add from '@mui/icons-material/Add';
import DataObject from '@mui/icons-material/DataObject';
import Box from '@mui/material/Box';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Variable } from '@slipway/contracts';
import { errorMessage } from '../../app/api-error';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { DataTable, queryStates, type Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { PermissionButton } from '../access/Can';
import { useDeleteVariableMutation, useVariablesQuery } from './api';
import { VariableDialog } from './VariableDialog';

/** The workspace's variables: plain name = value settings, listed, created, changed, deleted. */
export function VariablesList() {
  const { t } = useTranslation();
  const list = useVariablesQuery();
  const [editing, setEditing] = useState<Variable | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Variable | null>(null);
  const [remove, removed] = useDeleteVariableMutation();

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
            onClick={() => {
              removed.reset();
              setDeleting(v);
            }}
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
      <ConfirmDialog
        open={deleting !== null}
        title={t('secretsPage.deleteTitle', { name: deleting?.name ?? '' })}
        body={t('secretsPage.deleteVariableBody')}
        confirmLabel={t('secretsPage.delete')}
        loading={removed.isLoading}
        error={removed.isError ? errorMessage(removed.error) : null}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          void remove(deleting!.id)
            .unwrap()
            .then(() => setDeleting(null))
            .catch(() => undefined)
        }
      />
    </Box>
  );
}
