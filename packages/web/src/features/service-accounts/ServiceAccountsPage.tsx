import Add from '@mui/icons-material/Add';
import SmartToy from '@mui/icons-material/SmartToy';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ServiceAccount } from '@slipway/contracts';
import { errorMessage } from '../../ui/api-error';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { queryStates } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { Section } from '../../ui/Section';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { PermissionButton } from '../access/Can';
import { useCan } from '../access/usePermission';
import { useWorkspacesQuery } from '../account/api';
import { useRolesQuery, workspaceRoleOptions } from '../roles/api';
import { useRevokeServiceAccountMutation, useServiceAccountsQuery, type ServiceAccountCreated } from './api';
import { CreateServiceAccountDialog } from './CreateServiceAccountDialog';
import { EditPermissionsDialog } from './EditPermissionsDialog';
import { ServiceAccountsTable } from './ServiceAccountsTable';
import { TokenDialog } from './TokenDialog';

/** Service accounts: machine identities with project permissions and a token shown once. */
export default function ServiceAccountsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('serviceAccountsPage.title'));
  const can = useCan();
  const list = useServiceAccountsQuery();
  const { data: workspaces = [] } = useWorkspacesQuery();
  const { data: roles } = useRolesQuery();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ServiceAccountCreated | null>(null);
  const [revoking, setRevoking] = useState<ServiceAccount | null>(null);
  const [editing, setEditing] = useState<ServiceAccount | null>(null);
  const [revoke, revocation] = useRevokeServiceAccountMutation();
  const closeRevoke = () => {
    revocation.reset();
    setRevoking(null);
  };
  const openCreate = () => setCreating(true);

  const body = (
    <ServiceAccountsTable
      accounts={list.data}
      states={{
        ...queryStates(list, t('serviceAccountsPage.loadError')),
        empty: (
          <EmptyState icon={SmartToy} title={t('serviceAccountsPage.emptyTitle')}>
            <Typography color="text.secondary">{t('serviceAccountsPage.emptyBody')}</Typography>
          </EmptyState>
        ),
      }}
      workspaces={workspaces}
      roles={roles}
      canEdit={can('serviceAccounts:edit')}
      canRevoke={can('serviceAccounts:delete')}
      onEdit={setEditing}
      onRevoke={setRevoking}
    />
  );

  return (
    <Box data-testid="area-serviceAccounts" sx={{ maxWidth: 1100, display: 'grid', gap: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1" sx={{ flex: 1 }}>
          {t('serviceAccountsPage.title')}
        </Typography>
        <PermissionButton
          permission="serviceAccounts:create"
          variant="contained"
          startIcon={<Add />}
          onClick={openCreate}
        >
          {t('serviceAccountsPage.create.title')}
        </PermissionButton>
      </Box>
      <Section id="service-accounts-heading" title={t('serviceAccountsPage.listTitle')}>
        {body}
      </Section>
      {creating ? (
        <CreateServiceAccountDialog
          workspaces={workspaces}
          roles={workspaceRoleOptions(roles)}
          onClose={() => setCreating(false)}
          onCreated={(sa) => {
            setCreating(false);
            setCreated(sa);
          }}
        />
      ) : null}
      {editing ? (
        <EditPermissionsDialog
          account={editing}
          workspaces={workspaces}
          roles={workspaceRoleOptions(roles)}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {created ? (
        <TokenDialog name={created.name} token={created.token} onClose={() => setCreated(null)} />
      ) : null}
      <ConfirmDialog
        open={Boolean(revoking)}
        title={t('serviceAccountsPage.confirmRevoke.title', { name: revoking?.name ?? '' })}
        body={t('serviceAccountsPage.confirmRevoke.body')}
        confirmLabel={t('serviceAccountsPage.revoke')}
        loading={revocation.isLoading}
        error={revocation.error ? errorMessage(revocation.error) : null}
        onClose={closeRevoke}
        onConfirm={async () => {
          if (revoking && !(await revoke(revoking.id)).error) closeRevoke();
        }}
      />
    </Box>
  );
}
