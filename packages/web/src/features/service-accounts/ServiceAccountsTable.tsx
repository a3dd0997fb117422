import { useTranslation } from 'react-i18next';
import type { Role, ServiceAccount, Workspace } from '@slipway/contracts';
import { ActionsTable } from '../../ui/ActionsTable';
import type { Column, TableStates } from '../../ui/DataTable';
import { StatusChip } from '../../ui/StatusChip';
import { useClientSort } from '../../ui/useClientSort';
import { AllowedActions } from '../access/AllowedButton';
import { RoleChips } from '../roles/RoleChips';
import { serviceAccountStatus } from './api';

/** An account's dates, a column each: below 900 px only the expiry stays, and on a phone none. */
const DATE_COLUMNS = [
  { id: 'created', at: 'createdAt', hideBelow: 'md' },
  { id: 'expires', at: 'expiresAt', hideBelow: 'sm' },
  { id: 'lastUsed', at: 'lastUsedAt', hideBelow: 'md' },
] as const;

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
  // every account is here at once: the headers sort the rows in the page
  const sorted = useClientSort(accounts, {
    name: (sa) => sa.name,
    createdAt: (sa) => sa.createdAt,
    expiresAt: (sa) => sa.expiresAt,
    lastUsedAt: (sa) => sa.lastUsedAt,
    status: (sa) => serviceAccountStatus(sa),
  });
  const columns: Column<ServiceAccount>[] = [
    { id: 'name', header: t('serviceAccountsPage.columns.name'), cell: (sa) => sa.name, sortKey: 'name' },
    {
      id: 'prefix',
      header: t('serviceAccountsPage.columns.prefix'),
      cell: (sa) => `${sa.tokenPrefix}…`,
      sx: { fontFamily: 'monospace' },
      hideBelow: 'sm',
    },
    {
      id: 'permissions',
      header: t('serviceAccountsPage.columns.permissions'),
      hideBelow: 'md',
      cell: (sa) => (
        <RoleChips
          grants={sa.workspaces}
          roles={roles}
          workspaceName={(w) => workspaces.find((x) => x.id === w.workspaceId)?.name ?? w.workspaceId}
        />
      ),
    },
    ...DATE_COLUMNS.map(({ id, at, hideBelow }): Column<ServiceAccount> => ({
      id,
      header: t(`serviceAccountsPage.columns.${id}`),
      cell: (sa) => date(sa[at]),
      hideBelow,
      sortKey: at,
    })),
    {
      id: 'status',
      header: t('serviceAccountsPage.columns.status'),
      sortKey: 'status',
      cell: (sa) => {
        const status = serviceAccountStatus(sa);
        return (
          <StatusChip
            status={status}
            colors={STATUS_COLOR}
            label={t(`serviceAccountsPage.status.${status}`)}
          />
        );
      },
    },
  ];
  const actions: Column<ServiceAccount> = {
    id: 'actions',
    header: t('common.actions'),
    align: 'end',
    cell: (sa) =>
      serviceAccountStatus(sa) === 'revoked' ? null : (
        <AllowedActions
          actions={[
            {
              allowed: canEdit,
              label: t('serviceAccountsPage.edit.open'),
              name: t('serviceAccountsPage.edit.named', { name: sa.name }),
              onClick: () => onEdit(sa),
            },
            {
              allowed: canRevoke,
              label: t('serviceAccountsPage.revoke'),
              name: t('serviceAccountsPage.revokeNamed', { name: sa.name }),
              onClick: () => onRevoke(sa),
              danger: true,
            },
          ]}
        />
      ),
  };
  return (
    <ActionsTable
      label={t('serviceAccountsPage.title')}
      columns={columns}
      actions={actions}
      rows={sorted.rows}
      rowTestId="service-account-row"
      states={{ ...states, ...sorted.table }}
    />
  );
}
