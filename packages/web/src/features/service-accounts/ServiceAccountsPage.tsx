import SmartToy from '@mui/icons-material/SmartToy';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ServiceAccount } from '@slipway/contracts';
import { queryStates } from '../../ui/DataTable';
import { AreaPage } from '../../ui/AreaPage';
import { EmptyState } from '../../ui/EmptyState';
import { Section } from '../../ui/Section';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { CreateButton } from '../access/PermissionActions';
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
  const [editing, setEditing] = useState<ServiceAccount | null>(null);
  const revocation = useConfirmDelete(useRevokeServiceAccountMutation(), (sa: ServiceAccount) => ({
    title: t('serviceAccountsPage.confirmRevoke.title', { name: sa.name }),
    body: t('serviceAccountsPage.confirmRevoke.body'),
    confirmLabel: t('serviceAccountsPage.revoke'),
  }));
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
      onRevoke={revocation.ask}
    />
  );

  return (
    <AreaPage
      id="serviceAccounts"
      title={t('serviceAccountsPage.title')}
      maxWidth={1100}
      actions={
        <CreateButton permission="serviceAccounts:create" onClick={openCreate}>
          {t('serviceAccountsPage.create.title')}
        </CreateButton>
      }
    >
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
      {revocation.dialog}
    </AreaPage>
  );
}
