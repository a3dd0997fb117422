import DataObject from '@mui/icons-material/DataObject';
import Box from '@mui/material/Box';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Variable } from '@slipway/contracts';
import { EmptyState } from '../../ui/EmptyState';
import { listStates } from '../../ui/list-states';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { CreateButton } from '../access/PermissionActions';
import { useDeleteVariableMutation, useVariablesQuery } from './api';
import { KeyValueTable } from './KeyValueTable';
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

  return (
    <Box>
      <Box sx={{ display: 'flex', mb: 2 }}>
        <CreateButton
          permission="secrets:create"
          variant="outlined"
          sx={{ ml: 'auto' }}
          onClick={() => setEditing('new')}
        >
          {t('secretsPage.newVariable')}
        </CreateButton>
      </Box>
      <KeyValueTable<Variable>
        label={t('secretsPage.variablesTab')}
        rows={list.data}
        rowTestId="variable-row"
        columns={[
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
        ]}
        onEdit={setEditing}
        onDelete={deletion.ask}
        states={listStates(list, t('secretsPage.variablesLoadError'), {
          empty: <EmptyState icon={DataObject} title={t('secretsPage.noVariables')} />,
        })}
      />
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
