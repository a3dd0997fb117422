import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useTranslation } from 'react-i18next';
import type { Role, ServiceAccount, Workspace } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { NotAllowedTooltip } from '../access/Can';
import { roleLabel } from '../roles/api';
import { serviceAccountStatus } from './api';

const STATUS_COLOR = { active: 'success', expired: 'warning', revoked: 'default' } as const;

/**
 * Service accounts: name, token prefix, project permissions, created, expires, last used, status;
 * changing the permissions, and revoke.
 */
export function ServiceAccountsTable({
  accounts,
  workspaces,
  roles,
  canEdit,
  canRevoke,
  onEdit,
  onRevoke,
}: {
  accounts: ServiceAccount[];
  workspaces: Workspace[];
  roles: Role[] | undefined;
  canEdit: boolean;
  canRevoke: boolean;
  onEdit: (sa: ServiceAccount) => void;
  onRevoke: (sa: ServiceAccount) => void;
}) {
  const { t, i18n } = useTranslation();
  const date = (iso: string | null) =>
    iso ? new Date(iso).toLocaleDateString(i18n.language) : t('serviceAccountsPage.never');
  return (
    <TableContainer>
      <Table size="small" aria-label={t('serviceAccountsPage.title')}>
        <TableHead>
          <TableRow>
            {(['name', 'prefix', 'permissions', 'created', 'expires', 'lastUsed', 'status'] as const).map(
              (c) => (
                <TableCell key={c}>{t(`serviceAccountsPage.columns.${c}`)}</TableCell>
              ),
            )}
            <TableCell align="right">{t('common.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {accounts.map((sa) => {
            const status = serviceAccountStatus(sa);
            return (
              <TableRow key={sa.id} data-testid="service-account-row">
                <TableCell>{sa.name}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{sa.tokenPrefix}…</TableCell>
                <TableCell>
                  <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
                    {sa.workspaces.map((w) => (
                      <Chip
                        key={w.workspaceId}
                        size="small"
                        variant="outlined"
                        label={`${workspaces.find((x) => x.id === w.workspaceId)?.name ?? w.workspaceId}: ${roleLabel(roles, w.role)}`}
                      />
                    ))}
                  </Stack>
                </TableCell>
                <TableCell>{date(sa.createdAt)}</TableCell>
                <TableCell>{date(sa.expiresAt)}</TableCell>
                <TableCell>{date(sa.lastUsedAt)}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={STATUS_COLOR[status]}
                    label={t(`serviceAccountsPage.status.${status}`)}
                  />
                </TableCell>
                <TableCell align="right">
                  {status === 'revoked' ? null : (
                    <NotAllowedTooltip allowed={canEdit}>
                      <Button
                        size="small"
                        disabled={!canEdit}
                        onClick={() => onEdit(sa)}
                        aria-label={t('serviceAccountsPage.edit.named', { name: sa.name })}
                      >
                        {t('serviceAccountsPage.edit.open')}
                      </Button>
                    </NotAllowedTooltip>
                  )}
                  {status === 'revoked' ? null : (
                    <NotAllowedTooltip allowed={canRevoke}>
                      <Button
                        size="small"
                        color="error"
                        disabled={!canRevoke}
                        onClick={() => onRevoke(sa)}
                        aria-label={t('serviceAccountsPage.revokeNamed', { name: sa.name })}
                      >
                        {t('serviceAccountsPage.revoke')}
                      </Button>
                    </NotAllowedTooltip>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
