import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import type { Role } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { DataTable, type Column } from '../../ui/DataTable';
import { NotAllowedTooltip } from '../access/Can';

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
  const columns: Column<Role>[] = [
    {
      id: 'name',
      header: t('roles.name'),
      cell: (r) => (
        <>
          {r.name} {r.builtIn ? <Chip size="small" label={t('roles.builtIn')} sx={{ ml: 1 }} /> : null}
        </>
      ),
    },
    { id: 'description', header: t('roles.description'), cell: (r) => r.description },
    { id: 'scope', header: t('roles.scope'), cell: (r) => t(`roles.scopes.${r.scope}`) },
    { id: 'permissionCount', header: t('roles.permissionCount'), cell: (r) => r.grants.length, align: 'end' },
  ];
  if (editable)
    columns.push({
      id: 'actions',
      header: t('common.actions'),
      align: 'end',
      cell: (r) => (
        <Stack direction="row" spacing={1} justifyContent="flex-end">
          <NotAllowedTooltip allowed={canEdit}>
            <Button
              size="small"
              disabled={!canEdit}
              onClick={() => onEdit?.(r)}
              aria-label={t('roles.editRole', { name: r.name })}
            >
              {t('common.edit')}
            </Button>
          </NotAllowedTooltip>
          <NotAllowedTooltip allowed={canDelete}>
            <Button
              size="small"
              color="error"
              disabled={!canDelete}
              onClick={() => onDelete?.(r)}
              aria-label={t('roles.deleteRole', { name: r.name })}
            >
              {t('common.delete')}
            </Button>
          </NotAllowedTooltip>
        </Stack>
      ),
    });
  return (
    <DataTable
      aria-label={label}
      columns={columns}
      rows={roles}
      getRowId={(r) => r.id}
      rowTestId="role-row"
    />
  );
}
