import { useTranslation } from 'react-i18next';
import type { Member, Role, WorkspaceMember } from '@slipway/contracts';
import { FormDialog } from '../../ui/FormDialog';
import { SelectField } from '../../ui/SelectField';
import { useFormFields } from '../../ui/useFormFields';
import { WorkspaceRoleSelect } from '../roles/RoleSelect';
import { useAddWorkspaceMemberMutation, useChangeWorkspaceMemberRoleMutation } from './api';
import { personName } from './person-columns';

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
  const form = useFormFields({
    userId: member?.userId ?? '',
    role: initialRole ?? member?.role ?? 'developer',
  });
  const [add] = useAddWorkspaceMemberMutation();
  const [change] = useChangeWorkspaceMemberRoleMutation();
  const submit = form.handleSubmit({
    check: () => ({ userId: form.values.userId ? undefined : t('team.workspaceMembers.personRequired') }),
    mutate: () => (member ? change(form.values) : add(form.values)),
    onSuccess: () => onClose(),
  });

  const title = member
    ? t('team.workspaceMembers.roleTitle', { name: personName(member), workspace: workspaceName })
    : t('team.workspaceMembers.addTitle', { workspace: workspaceName });
  const person = form.field('userId');
  return (
    <FormDialog
      id="ws-member"
      form={form}
      title={title}
      submitLabel={member ? t('common.save') : t('team.workspaceMembers.add')}
      onSubmit={submit}
      onClose={onClose}
      maxWidth="xs"
    >
      {member ? null : (
        <SelectField
          {...person}
          id="ws-member-person"
          label={t('team.workspaceMembers.person')}
          helperText={
            person.helperText ??
            (candidates.length === 0 ? t('team.workspaceMembers.noCandidates') : undefined)
          }
          fullWidth
          options={candidates.map((m) => ({ value: m.userId, label: `${personName(m)} (${m.email})` }))}
        />
      )}
      <WorkspaceRoleSelect field={form.field('role')} id="ws-member-role" roles={roles} />
    </FormDialog>
  );
}
