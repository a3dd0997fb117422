import { useTranslation } from 'react-i18next';
import type { Member, Role } from '@slipway/contracts';
import { actionsColumn, ActionsTable } from '../../ui/ActionsTable';
import type { Column, TableStates } from '../../ui/DataTable';
import { RoleChips } from '../roles/RoleChips';
import { MemberActions, type MemberAction } from './MemberActions';
import { memberRow, personColumns } from './person-columns';

export const MEMBER_PAGE_SIZES = [10, 25, 50];

/** Members with their organisation role and their role in each workspace, a page at a time. */
export function MembersTable({
  members,
  states,
  roles,
  canEdit,
  canDelete,
  hasWorkspace,
  onAction,
}: {
  members: Member[] | undefined;
  /** The list's loading, error and empty states and its pager. */
  states?: TableStates;
  roles: Role[] | undefined;
  canEdit: boolean;
  canDelete: boolean;
  hasWorkspace: boolean;
  onAction: (action: MemberAction, member: Member) => void;
}) {
  const { t } = useTranslation();
  const columns: Column<Member>[] = [
    ...personColumns<Member>(t, (m) => `${m.firstName} ${m.lastName}`.trim()),
    {
      id: 'organisationRole',
      header: t('team.organisationRole'),
      cell: (m) => t(`team.orgRoles.${m.organisationRole}`),
      sortKey: 'organisationRole',
      hideBelow: 'sm',
    },
    {
      id: 'workspaceRoles',
      header: t('team.columns.workspaceRoles'),
      hideBelow: 'md',
      cell: (m) => <RoleChips grants={m.workspaces} roles={roles} workspaceName={(w) => w.workspaceName} />,
    },
  ];
  const actions = actionsColumn<Member>(t('common.actions'), (m) => (
    <MemberActions
      member={m}
      canEdit={canEdit}
      canDelete={canDelete}
      hasWorkspace={hasWorkspace}
      onAction={onAction}
    />
  ));
  return (
    <ActionsTable
      label={t('team.membersTitle')}
      columns={columns}
      actions={actions}
      rows={members?.map(memberRow)}
      rowTestId="member-row"
      states={states}
    />
  );
}
