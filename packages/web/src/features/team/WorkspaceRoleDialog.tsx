import { useTranslation } from 'react-i18next';
import type { Member, Role, Workspace } from '@slipway/contracts';
import { FormDialog } from '../../ui/FormDialog';
import { namedOptions, SelectField } from '../../ui/SelectField';
import { useFormFields } from '../../ui/useFormFields';
import { WorkspaceRoleSelect } from '../roles/RoleSelect';
import { useSetWorkspaceRoleMutation } from './api';
import { personName } from './person-columns';

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
  const name = personName(member);
  const submit = form.handleSubmit({
    mutate: () => save({ userId: member.userId, ...form.values }),
    onSuccess: () => onClose(),
  });
  const workspace = form.field('workspaceId');

  return (
    <FormDialog
      id="ws-role"
      form={form}
      title={t('team.workspaceRoleDialog.title', { name })}
      submitLabel={t('common.save')}
      submitDisabled={!form.values.workspaceId}
      onSubmit={submit}
      onClose={onClose}
      maxWidth="xs"
    >
      <SelectField
        {...workspace}
        id="ws-role-workspace"
        label={t('team.workspace')}
        onChange={(e) => {
          workspace.onChange(e);
          form.setValue('role', current(e.target.value) ?? form.values.role);
        }}
        fullWidth
        options={namedOptions(workspaces)}
      />
      <WorkspaceRoleSelect field={form.field('role')} id="ws-role-role" roles={roles} />
    </FormDialog>
  );
}
