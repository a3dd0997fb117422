import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import type { Role } from '@slipway/contracts';
import { Button } from '../../ui/Button';
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
  return (
    <TableContainer>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            <TableCell>{t('roles.name')}</TableCell>
            <TableCell>{t('roles.description')}</TableCell>
            <TableCell>{t('roles.scope')}</TableCell>
            <TableCell align="right">{t('roles.permissionCount')}</TableCell>
            {editable ? <TableCell align="right">{t('common.actions')}</TableCell> : null}
          </TableRow>
        </TableHead>
        <TableBody>
          {roles.map((r) => (
            <TableRow key={r.id} data-testid="role-row">
              <TableCell>
                {r.name} {r.builtIn ? <Chip size="small" label={t('roles.builtIn')} sx={{ ml: 1 }} /> : null}
              </TableCell>
              <TableCell>{r.description}</TableCell>
              <TableCell>{t(`roles.scopes.${r.scope}`)}</TableCell>
              <TableCell align="right">{r.grants.length}</TableCell>
              {editable ? (
                <TableCell align="right">
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
                </TableCell>
              ) : null}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
