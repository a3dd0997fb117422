import GroupAdd from '@mui/icons-material/GroupAdd';
import MoreVert from '@mui/icons-material/MoreVert';
import PeopleOutline from '@mui/icons-material/PeopleOutline';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Role, WorkspaceMember } from '@slipway/contracts';
import { errorMessage } from '../../ui/api-error';
import { DataTable, queryStates, type Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { FormAlert } from '../../ui/FormAlert';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { useListParams } from '../../ui/useListParams';
import { Section } from '../../ui/Section';
import { AllowedButton } from '../access/AllowedButton';
import { NotAllowedTooltip } from '../access/Can';
import { useCallerPermissions, useCanInWorkspace } from '../access/usePermission';
import { roleLabel, workspaceRoleOptions } from '../roles/api';
import {
  useChangeWorkspaceMemberRoleMutation,
  useMembersQuery,
  useRemoveWorkspaceMemberMutation,
  useWorkspaceMembersQuery,
} from './api';
import { MEMBER_PAGE_SIZES } from './MembersTable';
import { memberRow, personColumns, personName } from './person-columns';
import { WorkspaceMemberDialog } from './WorkspaceMemberDialog';

const ADMINS = new Set(['master_admin', 'account_admin']);

/**
 * The members of the current workspace, for whoever holds the members permissions in it: a
 * project admin adds organisation members, changes their role here ('Make Project Admin') and
 * takes them out; organisation admins' rows stay with the organisation's admins.
 */
export function WorkspaceMembersSection({
  workspaceId,
  workspaceName,
  roles,
}: {
  workspaceId: string;
  workspaceName: string;
  roles: Role[] | undefined;
}) {
  const { t } = useTranslation();
  const can = useCanInWorkspace();
  const { data: caller } = useCallerPermissions();
  const callerIsAdmin = ADMINS.has(caller?.organisationRole ?? '');
  const listParams = useListParams({ sizes: MEMBER_PAGE_SIZES });
  const { page, rowsPerPage } = listParams.paging;
  const list = useWorkspaceMembersQuery({
    workspaceId,
    start: page * rowsPerPage,
    end: (page + 1) * rowsPerPage,
    sort: listParams.sort,
  });
  const organisation = useMembersQuery({ start: 0, end: 500 });
  const [dialog, setDialog] = useState<{ member?: WorkspaceMember; role?: string } | null>(null);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; member: WorkspaceMember } | null>(null);
  const [change, changing] = useChangeWorkspaceMemberRoleMutation();
  const removal = useConfirmDelete(
    useRemoveWorkspaceMemberMutation(),
    (m: WorkspaceMember & { id: string }) => ({
      title: t('team.workspaceMembers.confirmRemove.title', { name: personName(m) }),
      body: t('team.workspaceMembers.confirmRemove.body', { name: personName(m), workspace: workspaceName }),
      confirmLabel: t('team.workspaceMembers.confirmRemove.confirm'),
    }),
  );
  const roleOptions = workspaceRoleOptions(roles);
  const inWorkspace = new Set(list.data?.members.map((m) => m.userId));
  const candidates = (organisation.data?.members ?? []).filter(
    (m) => !inWorkspace.has(m.userId) && !m.workspaces.some((w) => w.workspaceId === workspaceId),
  );
  const canEdit = can('members:edit');
  const canDelete = can('members:delete');

  function pick(action: 'makeProjectAdmin' | 'changeRole' | 'remove') {
    const member = menu!.member;
    setMenu(null);
    if (action === 'remove') removal.ask(memberRow(member));
    else if (action === 'changeRole') setDialog({ member });
    else void change({ userId: member.userId, role: 'project_admin' });
  }

  const columns: Column<WorkspaceMember>[] = [
    ...personColumns<WorkspaceMember>(t, personName),
    { id: 'role', header: t('team.workspaceRole'), cell: (m) => roleLabel(roles, m.role), sortKey: 'role' },
    {
      id: 'actions',
      header: t('common.actions'),
      align: 'end',
      cell: (m) => {
        const allowed = (canEdit || canDelete) && (callerIsAdmin || !ADMINS.has(m.organisationRole));
        return (
          <NotAllowedTooltip allowed={allowed}>
            <IconButton
              aria-label={t('team.workspaceMembers.actionsFor', { name: personName(m) })}
              aria-haspopup="menu"
              disabled={!allowed}
              onClick={(e) => setMenu({ anchor: e.currentTarget, member: m })}
            >
              <MoreVert />
            </IconButton>
          </NotAllowedTooltip>
        );
      },
    },
  ];
  const body = (
    <DataTable
      aria-label={t('team.workspaceMembers.title', { workspace: workspaceName })}
      columns={columns}
      rows={list.data?.members}
      getRowId={(m) => m.userId}
      rowTestId="workspace-member-row"
      {...queryStates(list, t('team.workspaceMembers.loadError'))}
      skeletonRows={3}
      empty={<EmptyState icon={PeopleOutline} title={t('team.workspaceMembers.empty')} />}
      total={list.data?.total}
      {...listParams.table}
    />
  );

  return (
    <Section
      id="workspace-members-heading"
      title={t('team.workspaceMembers.title', { workspace: workspaceName })}
      action={
        <AllowedButton
          allowed={can('members:create')}
          variant="outlined"
          startIcon={<GroupAdd />}
          onClick={() => setDialog({})}
        >
          {t('team.workspaceMembers.add')}
        </AllowedButton>
      }
    >
      <FormAlert message={changing.error ? errorMessage(changing.error) : null} />
      {body}
      <Menu anchorEl={menu?.anchor} open={Boolean(menu)} onClose={() => setMenu(null)}>
        {canEdit && menu?.member.role !== 'project_admin' ? (
          <MenuItem onClick={() => pick('makeProjectAdmin')}>{t('team.actions.makeProjectAdmin')}</MenuItem>
        ) : null}
        {canEdit ? (
          <MenuItem onClick={() => pick('changeRole')}>{t('team.workspaceMembers.changeRole')}</MenuItem>
        ) : null}
        {canDelete ? (
          <MenuItem onClick={() => pick('remove')} sx={{ color: 'error.main' }}>
            {t('team.workspaceMembers.remove')}
          </MenuItem>
        ) : null}
      </Menu>
      {dialog ? (
        <WorkspaceMemberDialog
          workspaceName={workspaceName}
          {...(dialog.member ? { member: dialog.member } : {})}
          {...(dialog.role ? { initialRole: dialog.role } : {})}
          candidates={candidates}
          roles={roleOptions}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {removal.dialog}
    </Section>
  );
}
