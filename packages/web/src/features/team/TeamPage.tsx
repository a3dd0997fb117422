import GroupAdd from '@mui/icons-material/GroupAdd';
import PeopleOutline from '@mui/icons-material/PeopleOutline';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Member } from '@slipway/contracts';
import { errorMessage } from '../../ui/api-error';
import { useAppSelector } from '../../app/hooks';
import { queryStates } from '../../ui/DataTable';
import { AreaPage } from '../../ui/AreaPage';
import { EmptyState } from '../../ui/EmptyState';
import { FormAlert } from '../../ui/FormAlert';
import { ListStates } from '../../ui/ListStates';
import { Section } from '../../ui/Section';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useListParams } from '../../ui/useListParams';
import { CreateButton } from '../access/PermissionActions';
import { useCan, useCanInWorkspace } from '../access/usePermission';
import { useWorkspacesQuery } from '../account/api';
import { useRolesQuery, workspaceRoleOptions } from '../roles/api';
import { useInvitesQuery, useMembersQuery } from './api';
import { InviteDialog } from './InviteDialog';
import type { MemberAction } from './MemberActions';
import { MEMBER_PAGE_SIZES, MembersTable } from './MembersTable';
import { PendingInvites } from './PendingInvites';
import { memberRow } from './person-columns';
import { useTeamConfirmations } from './TeamConfirmations';
import { useMemberRoleChange } from './useMemberRoleChange';
import { WorkspaceMembersSection } from './WorkspaceMembersSection';
import { WorkspaceRoleDialog } from './WorkspaceRoleDialog';

/** Team management: members and their roles, invites, and the changes an admin makes. */
export default function TeamPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('team.title'));
  const projectId = useAppSelector((s) => s.auth.projectId);
  const can = useCan();
  const canInWorkspace = useCanInWorkspace();
  const listParams = useListParams({ sizes: MEMBER_PAGE_SIZES });
  const { page, rowsPerPage } = listParams.paging;
  const members = useMembersQuery({
    start: page * rowsPerPage,
    end: (page + 1) * rowsPerPage,
    sort: listParams.sort,
  });
  const invites = useInvitesQuery();
  const { data: workspaces = [] } = useWorkspacesQuery();
  const { data: roles } = useRolesQuery();
  const roleOptions = workspaceRoleOptions(roles);
  const [inviting, setInviting] = useState(false);
  const [invited, setInvited] = useState<string | null>(null);
  const { removal, revocation } = useTeamConfirmations();
  const [roleDialog, setRoleDialog] = useState<{ member: Member; role?: string } | null>(null);
  const roleChange = useMemberRoleChange();

  function onAction(action: MemberAction, member: Member) {
    setInvited(null);
    if (action === 'remove') removal.ask(memberRow(member));
    else if (action === 'changeWorkspaceRole') setRoleDialog({ member });
    else if (action === 'makeProjectAdmin') setRoleDialog({ member, role: 'project_admin' });
    else void roleChange.run(action, member, projectId);
  }

  const membersBody = (
    <MembersTable
      members={members.data?.members}
      states={{
        ...queryStates(members, t('team.loadError')),
        skeletonRows: 5,
        empty: <EmptyState icon={PeopleOutline} title={t('team.empty')} />,
        total: members.data?.total,
        ...listParams.table,
      }}
      roles={roles}
      canEdit={can('members:edit')}
      canDelete={can('members:delete')}
      hasWorkspace={Boolean(projectId)}
      onAction={onAction}
    />
  );

  const invitesBody = (
    <ListStates
      query={invites}
      lines={2}
      what={t('team.invitesLoadError')}
      empty={<Typography color="text.secondary">{t('team.noInvites')}</Typography>}
    >
      {(data) => (
        <PendingInvites
          invites={data}
          workspaces={workspaces}
          roles={roles}
          canRevoke={can('members:create')}
          onRevoke={revocation.ask}
        />
      )}
    </ListStates>
  );

  return (
    <AreaPage
      id="team"
      title={t('team.title')}
      maxWidth={1100}
      actions={
        <CreateButton permission="members:create" startIcon={<GroupAdd />} onClick={() => setInviting(true)}>
          {t('team.invite.open')}
        </CreateButton>
      }
    >
      <FormAlert message={invited ? t('team.invite.sent', { email: invited }) : null} severity="success" />
      <FormAlert message={roleChange.error ? errorMessage(roleChange.error) : null} />
      {projectId && canInWorkspace('members:view') ? (
        <WorkspaceMembersSection
          workspaceId={projectId}
          workspaceName={workspaces.find((w) => w.id === projectId)?.name ?? ''}
          roles={roles}
        />
      ) : null}
      <Section id="members-heading" title={t('team.membersTitle')}>
        {membersBody}
      </Section>
      <Section id="invites-heading" title={t('team.invitesTitle')}>
        {invitesBody}
      </Section>
      <InviteDialog
        open={inviting}
        onClose={() => setInviting(false)}
        onInvited={(invite) => setInvited(invite.email)}
        workspaces={workspaces}
        roles={roleOptions}
        defaultWorkspaceId={projectId}
      />
      {roleDialog ? (
        <WorkspaceRoleDialog
          member={roleDialog.member}
          workspaces={workspaces}
          roles={roleOptions}
          initialWorkspaceId={projectId ?? workspaces[0]?.id ?? ''}
          {...(roleDialog.role ? { initialRole: roleDialog.role } : {})}
          onClose={() => setRoleDialog(null)}
        />
      ) : null}
      {removal.dialog}
      {revocation.dialog}
    </AreaPage>
  );
}
