import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import type { Role, ServiceAccount, Workspace } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { DataTable, type Column, type TableStates } from '../../ui/DataTable';
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
  states,
  workspaces,
  roles,
  canEdit,
  canRevoke,
  onEdit,
  onRevoke,
}: {
  accounts: ServiceAccount[] | undefined;
  /** The list's loading, error and empty states. */
  states?: TableStates;
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
  const columns: Column<ServiceAccount>[] = [
    { id: 'name', header: t('serviceAccountsPage.columns.name'), cell: (sa) => sa.name },
    {
      id: 'prefix',
      header: t('serviceAccountsPage.columns.prefix'),
      cell: (sa) => `${sa.tokenPrefix}…`,
      sx: { fontFamily: 'monospace' },
    },
    {
      id: 'permissions',
      header: t('serviceAccountsPage.columns.permissions'),
      cell: (sa) => (
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
      ),
    },
    { id: 'created', header: t('serviceAccountsPage.columns.created'), cell: (sa) => date(sa.createdAt) },
    { id: 'expires', header: t('serviceAccountsPage.columns.expires'), cell: (sa) => date(sa.expiresAt) },
    { id: 'lastUsed', header: t('serviceAccountsPage.columns.lastUsed'), cell: (sa) => date(sa.lastUsedAt) },
    {
      id: 'status',
      header: t('serviceAccountsPage.columns.status'),
      cell: (sa) => {
        const status = serviceAccountStatus(sa);
        return (
          <Chip size="small" color={STATUS_COLOR[status]} label={t(`serviceAccountsPage.status.${status}`)} />
        );
      },
    },
    {
      id: 'actions',
      header: t('common.actions'),
      align: 'end',
      cell: (sa) =>
        serviceAccountStatus(sa) === 'revoked' ? null : (
          <>
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
          </>
        ),
    },
  ];
  return (
    <DataTable
      aria-label={t('serviceAccountsPage.title')}
      columns={columns}
      rows={accounts}
      getRowId={(sa) => sa.id}
      rowTestId="service-account-row"
      {...states}
    />
  );
}
