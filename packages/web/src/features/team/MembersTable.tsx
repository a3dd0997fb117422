import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import { useTranslation } from 'react-i18next';
import type { Member, Role } from '@slipway/contracts';
import { roleLabel } from '../roles/api';
import { MemberActions, type MemberAction } from './MemberActions';

export const MEMBER_PAGE_SIZES = [10, 25, 50];

/** Members with their organisation role and their role in each workspace, a page at a time. */
export function MembersTable({
  members,
  total,
  page,
  rowsPerPage,
  onPageChange,
  onRowsPerPageChange,
  roles,
  canEdit,
  canDelete,
  hasWorkspace,
  onAction,
}: {
  members: Member[];
  total: number;
  page: number;
  rowsPerPage: number;
  onPageChange: (page: number) => void;
  onRowsPerPageChange: (rows: number) => void;
  roles: Role[] | undefined;
  canEdit: boolean;
  canDelete: boolean;
  hasWorkspace: boolean;
  onAction: (action: MemberAction, member: Member) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TableContainer>
        <Table size="small" aria-label={t('team.membersTitle')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('team.columns.name')}</TableCell>
              <TableCell>{t('team.columns.email')}</TableCell>
              <TableCell>{t('team.organisationRole')}</TableCell>
              <TableCell>{t('team.columns.workspaceRoles')}</TableCell>
              <TableCell align="right">{t('common.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {members.map((m) => (
              <TableRow key={m.userId} data-testid="member-row">
                <TableCell>{`${m.firstName} ${m.lastName}`.trim()}</TableCell>
                <TableCell>{m.email}</TableCell>
                <TableCell>{t(`team.orgRoles.${m.organisationRole}`)}</TableCell>
                <TableCell>
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
                </TableCell>
                <TableCell align="right">
                  <MemberActions
                    member={m}
                    canEdit={canEdit}
                    canDelete={canDelete}
                    hasWorkspace={hasWorkspace}
                    onAction={onAction}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={total}
        page={page}
        rowsPerPage={rowsPerPage}
        rowsPerPageOptions={MEMBER_PAGE_SIZES}
        onPageChange={(_, p) => onPageChange(p)}
        onRowsPerPageChange={(e) => onRowsPerPageChange(Number(e.target.value))}
      />
    </>
  );
}
