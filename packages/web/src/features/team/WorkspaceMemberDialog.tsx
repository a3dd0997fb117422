import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Member, Role, WorkspaceMember } from '@slipway/contracts';
import { errorMessage } from '../../app/api-error';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { useAddWorkspaceMemberMutation, useChangeWorkspaceMemberRoleMutation } from './api';

const nameOf = (m: Pick<Member, 'firstName' | 'lastName' | 'email'>) =>
  `${m.firstName} ${m.lastName}`.trim() || m.email;

/**
 * Adds a member of the organisation to the current workspace with a role, or changes the role of
 * someone already in it. The server refuses a role beyond the caller's own grants.
 */
export function WorkspaceMemberDialog({
  workspaceName,
  member,
  candidates,
  roles,
  initialRole,
  onClose,
}: {
  workspaceName: string;
  /** the member whose role changes; absent when adding */
  member?: WorkspaceMember;
  /** organisation members not in the workspace yet, to add */
  candidates: Member[];
  roles: Pick<Role, 'id' | 'name'>[];
  initialRole?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [userId, setUserId] = useState(member?.userId ?? '');
  const [role, setRole] = useState(initialRole ?? member?.role ?? 'developer');
  const [touched, setTouched] = useState(false);
  const [add, adding] = useAddWorkspaceMemberMutation();
  const [change, changing] = useChangeWorkspaceMemberRoleMutation();
  const busy = adding.isLoading || changing.isLoading;
  const error = adding.error ?? changing.error;
  const missingMember = !member && touched && !userId;

  async function submit() {
    setTouched(true);
    if (!userId) return;
    const answer = member ? await change({ userId, role }) : await add({ userId, role });
    if (!answer.error) onClose();
  }

  const title = member
    ? t('team.workspaceMembers.roleTitle', { name: nameOf(member), workspace: workspaceName })
    : t('team.workspaceMembers.addTitle', { workspace: workspaceName });
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby="ws-member-title"
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id="ws-member-title">{title}</DialogTitle>
      <DialogContent>
        <FormAlert message={error ? errorMessage(error) : null} />
        <Stack spacing={2} sx={{ pt: 1 }}>
          {member ? null : (
            <TextField
              select
              id="ws-member-person"
              label={t('team.workspaceMembers.person')}
              value={userId}
              onChange={(e) => setUserId(e.target.value)}
              error={missingMember}
              helperText={
                missingMember
                  ? t('team.workspaceMembers.personRequired')
                  : candidates.length === 0
                    ? t('team.workspaceMembers.noCandidates')
                    : undefined
              }
              fullWidth
            >
              {candidates.map((m) => (
                <MenuItem key={m.userId} value={m.userId}>
                  {`${nameOf(m)} (${m.email})`}
                </MenuItem>
              ))}
            </TextField>
          )}
          <TextField
            select
            id="ws-member-role"
            label={t('team.workspaceRole')}
            value={role}
            onChange={(e) => setRole(e.target.value)}
            fullWidth
          >
            {roles.map((r) => (
              <MenuItem key={r.id} value={r.id}>
                {r.name}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" loading={busy} onClick={() => void submit()}>
          {member ? t('common.save') : t('team.workspaceMembers.add')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
