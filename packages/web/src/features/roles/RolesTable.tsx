import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import type { Role } from '@slipway/contracts';
import { DataTable, type Column } from '../../ui/DataTable';
import { useClientSort } from '../../ui/useClientSort';
import { AllowedActions } from '../access/AllowedButton';

/** Roles with their kind, scope and how many permissions they grant; custom ones can be changed. */
export function RolesTable({
  roles,
  label,
  canEdit,
  canDelete,
  onEdit,
  onDelete,
}: {
  roles: Role[];
  label: string;
  canEdit: boolean;
  canDelete: boolean;
  onEdit?: (role: Role) => void;
  onDelete?: (role: Role) => void;
}) {
  const { t } = useTranslation();
  const editable = Boolean(onEdit || onDelete);
  // every role is here at once: the headers sort the rows in the page
  const sorted = useClientSort(roles, {
    name: (r) => r.name,
    scope: (r) => t(`roles.scopes.${r.scope}`),
    permissionCount: (r) => r.grants.length,
  });
  const columns: Column<Role>[] = [
    {
      id: 'name',
      header: t('roles.name'),
      sortKey: 'name',
      cell: (r) => (
        <>
          {r.name} {r.builtIn ? <Chip size="small" label={t('roles.builtIn')} sx={{ ml: 1 }} /> : null}
        </>
      ),
    },
    { id: 'description', header: t('roles.description'), cell: (r) => r.description, hideBelow: 'md' },
    {
      id: 'scope',
      header: t('roles.scope'),
      sortKey: 'scope',
      cell: (r) => t(`roles.scopes.${r.scope}`),
      hideBelow: 'sm',
    },
    {
      id: 'permissionCount',
      header: t('roles.permissionCount'),
      sortKey: 'permissionCount',
      cell: (r) => r.grants.length,
      align: 'end',
      hideBelow: 'sm',
    },
  ];
  if (editable)
    columns.push({
      id: 'actions',
      header: t('common.actions'),
      align: 'end',
      cell: (r) => (
        <Stack direction="row" spacing={1} justifyContent="flex-end">
          <AllowedActions
            actions={[
              {
                allowed: canEdit,
                label: t('common.edit'),
                name: t('roles.editRole', { name: r.name }),
                onClick: () => onEdit?.(r),
              },
              {
                allowed: canDelete,
                label: t('common.delete'),
                name: t('roles.deleteRole', { name: r.name }),
                onClick: () => onDelete?.(r),
                danger: true,
              },
            ]}
          />
        </Stack>
      ),
    });
  return (
    <DataTable
      aria-label={label}
      columns={columns}
      rows={sorted.rows}
      getRowId={(r) => r.id}
      rowTestId="role-row"
      {...sorted.table}
    />
  );
}
