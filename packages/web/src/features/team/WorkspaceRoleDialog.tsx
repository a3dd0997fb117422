import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Member, Role, Workspace } from '@slipway/contracts';
import { errorMessage } from '../../app/api-error';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { useSetWorkspaceRoleMutation } from './api';

/** Gives a member a role in a workspace (built-in or custom), or changes the one they have. */
export function WorkspaceRoleDialog({
  member,
  workspaces,
  roles,
  initialWorkspaceId,
  initialRole,
  onClose,
}: {
  member: Member;
  workspaces: Workspace[];
  roles: Pick<Role, 'id' | 'name'>[];
  initialWorkspaceId: string;
  initialRole?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const current = (ws: string) => member.workspaces.find((w) => w.workspaceId === ws)?.role;
  const [workspaceId, setWorkspaceId] = useState(initialWorkspaceId);
  const [role, setRole] = useState(initialRole ?? current(initialWorkspaceId) ?? 'developer');
  const [save, { isLoading, error }] = useSetWorkspaceRoleMutation();
  const name = `${member.firstName} ${member.lastName}`.trim() || member.email;

  async function submit() {
    const answer = await save({ userId: member.userId, workspaceId, role });
    if (!answer.error) onClose();
  }

  return (
    <Dialog
      open
      onClose={isLoading ? undefined : onClose}
      aria-labelledby="ws-role-title"
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id="ws-role-title">{t('team.workspaceRoleDialog.title', { name })}</DialogTitle>
      <DialogContent>
        <FormAlert message={error ? errorMessage(error) : null} />
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            id="ws-role-workspace"
            label={t('team.workspace')}
            value={workspaceId}
            onChange={(e) => {
              setWorkspaceId(e.target.value);
              setRole(current(e.target.value) ?? role);
            }}
            fullWidth
          >
            {workspaces.map((w) => (
              <MenuItem key={w.id} value={w.id}>
                {w.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            id="ws-role-role"
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
        <Button onClick={onClose} disabled={isLoading}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" loading={isLoading} disabled={!workspaceId} onClick={() => void submit()}>
          {t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
