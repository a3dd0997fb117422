import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import type { Member, Role } from '@slipway/contracts';
import { DataTable, type Column, type TableStates } from '../../ui/DataTable';
import { roleLabel } from '../roles/api';
import { MemberActions, type MemberAction } from './MemberActions';

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
    { id: 'name', header: t('team.columns.name'), cell: (m) => `${m.firstName} ${m.lastName}`.trim() },
    { id: 'email', header: t('team.columns.email'), cell: (m) => m.email },
    {
      id: 'organisationRole',
      header: t('team.organisationRole'),
      cell: (m) => t(`team.orgRoles.${m.organisationRole}`),
    },
    {
      id: 'workspaceRoles',
      header: t('team.columns.workspaceRoles'),
      cell: (m) => (
        <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
          {m.workspaces.map((w) => (
            <Chip
              key={w.workspaceId}
              size="small"
              variant="outlined"
              label={`${w.workspaceName}: ${roleLabel(roles, w.role)}`}
            />
          ))}
        </Stack>
      ),
    },
    {
      id: 'actions',
      header: t('common.actions'),
      align: 'end',
      cell: (m) => (
        <MemberActions
          member={m}
          canEdit={canEdit}
          canDelete={canDelete}
          hasWorkspace={hasWorkspace}
          onAction={onAction}
        />
      ),
    },
  ];
  return (
    <DataTable
      aria-label={t('team.membersTitle')}
      columns={columns}
      rows={members}
      getRowId={(m) => m.userId}
      rowTestId="member-row"
      {...states}
    />
  );
}
