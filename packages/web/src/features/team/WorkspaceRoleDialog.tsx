import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { Member, Role, Workspace } from '@slipway/contracts';
import { FormDialog } from '../../ui/FormDialog';
import { useFormFields } from '../../ui/useFormFields';
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
  const form = useFormFields({
    workspaceId: initialWorkspaceId,
    role: initialRole ?? current(initialWorkspaceId) ?? 'developer',
  });
  const [save] = useSetWorkspaceRoleMutation();
  const name = `${member.firstName} ${member.lastName}`.trim() || member.email;
  const submit = form.handleSubmit({
    mutate: () => save({ userId: member.userId, ...form.values }),
    onSuccess: () => onClose(),
  });
  const workspace = form.field('workspaceId');

  return (
    <FormDialog
      id="ws-role"
      title={t('team.workspaceRoleDialog.title', { name })}
      error={form.formError}
      submitLabel={t('common.save')}
      busy={form.submitting}
      submitDisabled={!form.values.workspaceId}
      onSubmit={submit}
      onClose={onClose}
      formRef={form.formRef}
      maxWidth="xs"
    >
      <TextField
        {...workspace}
        select
        id="ws-role-workspace"
        label={t('team.workspace')}
        onChange={(e) => {
          workspace.onChange(e);
          form.setValue('role', current(e.target.value) ?? form.values.role);
        }}
        fullWidth
      >
        {workspaces.map((w) => (
          <MenuItem key={w.id} value={w.id}>
            {w.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField {...form.field('role')} select id="ws-role-role" label={t('team.workspaceRole')} fullWidth>
        {roles.map((r) => (
          <MenuItem key={r.id} value={r.id}>
            {r.name}
          </MenuItem>
        ))}
      </TextField>
    </FormDialog>
  );
}
