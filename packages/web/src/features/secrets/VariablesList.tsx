import Add from '@mui/icons-material/Add';
import DataObject from '@mui/icons-material/DataObject';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Variable } from '@slipway/contracts';
import { errorMessage } from '../../app/api-error';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EmptyState } from '../../ui/EmptyState';
import { ListStates } from '../../ui/ListStates';
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

  const body = (
    <ListStates
      query={list}
      lines={5}
      what={t('secretsPage.variablesLoadError')}
      empty={<EmptyState icon={DataObject} title={t('secretsPage.noVariables')} />}
    >
      {(data) => (
        <TableContainer>
          <Table size="small" aria-label={t('secretsPage.variablesTab')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('secretsPage.columns.name')}</TableCell>
                <TableCell>{t('secretsPage.columns.value')}</TableCell>
                <TableCell>{t('secretsPage.columns.description')}</TableCell>
                <TableCell align="right">{t('secretsPage.columns.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((v) => (
                <TableRow key={v.id} data-testid="variable-row">
                  <TableCell sx={{ fontFamily: 'monospace' }}>{v.name}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{v.value}</TableCell>
                  <TableCell>{v.description}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
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
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </ListStates>
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
