import Add from '@mui/icons-material/Add';
import Key from '@mui/icons-material/Key';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeployToken, DeployTokenCreated, Repository } from '@slipway/contracts';
import { actionsColumn } from '../../ui/ActionsTable';
import { errorMessage } from '../../ui/api-error';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { queryStates, type Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { formatTime } from '../../ui/format';
import { TranslatedStatusChip } from '../../ui/StatusChip';
import { TableSection } from '../../ui/TableSection';
import { AllowedActions } from '../access/AllowedButton';
import { PermissionButton } from '../access/Can';
import { usePermission } from '../access/usePermission';
import { deployTokenStatus, useDeployTokensQuery, useRevokeDeployTokenMutation } from './api';
import { DeployTokenShownDialog, NewDeployTokenDialog } from './DeployTokenDialogs';

const STATUS_COLOR = { active: 'success', expired: 'warning', revoked: 'default' } as const;

/**
 * A hosted repository's deploy tokens: name, access, expiry, last use, creation and status; a new
 * one is shown once, and revoking one asks first. Both need the repositories edit permission.
 */
export function DeployTokensSection({ repository }: { repository: Repository }) {
  const { t, i18n } = useTranslation();
  const query = useDeployTokensQuery(repository.id);
  const canEdit = usePermission('repositories:edit').allowed;
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<DeployTokenCreated | null>(null);
  const [revoking, setRevoking] = useState<DeployToken | null>(null);
  const [revoke, revocation] = useRevokeDeployTokenMutation();
  const when = (at: string | null) => formatTime(at, i18n.language) || t('repositories.never');
  const closeRevoke = () => {
    revocation.reset();
    setRevoking(null);
  };

  const columns: Column<DeployToken>[] = [
    {
      id: 'name',
      header: t('repositories.tokens.columns.name'),
      cell: (d) => d.name,
      sx: { overflowWrap: 'anywhere' },
    },
    {
      id: 'access',
      header: t('repositories.tokens.columns.access'),
      cell: (d) => t(`repositories.tokens.access.${d.access}`),
    },
    {
      id: 'expires',
      header: t('repositories.tokens.columns.expires'),
      cell: (d) => when(d.expiresAt),
      sx: { whiteSpace: 'nowrap' },
      hideBelow: 'sm',
    },
    {
      id: 'lastUsed',
      header: t('repositories.tokens.columns.lastUsed'),
      cell: (d) => when(d.lastUsedAt),
      sx: { whiteSpace: 'nowrap' },
      hideBelow: 'md',
    },
    {
      id: 'created',
      header: t('repositories.tokens.columns.created'),
      cell: (d) => when(d.createdAt),
      sx: { whiteSpace: 'nowrap' },
      hideBelow: 'md',
    },
    {
      id: 'status',
      header: t('repositories.tokens.columns.status'),
      cell: (d) => (
        <TranslatedStatusChip
          status={deployTokenStatus(d)}
          colors={STATUS_COLOR}
          labels="repositories.tokens.status"
          attribute="status"
        />
      ),
    },
    actionsColumn(t('common.actions'), (d) =>
      d.revokedAt ? null : (
        <AllowedActions
          actions={[
            {
              allowed: canEdit,
              label: t('repositories.tokens.revoke'),
              name: t('repositories.tokens.revokeNamed', { name: d.name }),
              onClick: () => setRevoking(d),
              danger: true,
            },
          ]}
        />
      ),
    ),
  ];

  return (
    <>
      <TableSection
        id="repository-tokens-title"
        title={t('repositories.tokens.title')}
        action={
          <PermissionButton
            permission="repositories:edit"
            variant="outlined"
            startIcon={<Add />}
            onClick={() => setCreating(true)}
          >
            {t('repositories.tokens.create')}
          </PermissionButton>
        }
        columns={columns}
        rows={query.data}
        getRowId={(d) => d.id}
        rowTestId="deploy-token-row"
        {...queryStates(query, t('repositories.tokens.loadError'))}
        skeletonRows={2}
        empty={
          <EmptyState icon={Key} title={t('repositories.tokens.empty')}>
            <Typography color="text.secondary">{t('repositories.tokens.emptyBody')}</Typography>
          </EmptyState>
        }
      />
      {creating ? (
        <NewDeployTokenDialog
          repository={repository}
          onClose={() => setCreating(false)}
          onCreated={(token) => {
            setCreating(false);
            setCreated(token);
          }}
        />
      ) : null}
      {created ? (
        <DeployTokenShownDialog repository={repository} token={created} onClose={() => setCreated(null)} />
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        title={t('repositories.tokens.revokeTitle', { name: revoking?.name ?? '' })}
        body={t('repositories.tokens.revokeBody')}
        confirmLabel={t('repositories.tokens.revoke')}
        loading={revocation.isLoading}
        error={revocation.error ? errorMessage(revocation.error) : null}
        onClose={closeRevoke}
        onConfirm={() => {
          if (!revoking) return;
          void revoke({ id: repository.id, tokenId: revoking.id }).then((answer) => {
            if (!answer.error) closeRevoke();
          });
        }}
      />
    </>
  );
}
