import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import {
  INVITABLE_ORGANISATION_ROLES,
  inviteCreateRequestSchema,
  type Invite,
  type Role,
  type Workspace,
} from '@slipway/contracts';
import { FormDialog } from '../../ui/FormDialog';
import { namedOptions, SelectField } from '../../ui/SelectField';
import { useFormFields } from '../../ui/useFormFields';
import { WorkspaceRoleSelect } from '../roles/RoleSelect';
import { useCreateInviteMutation } from './api';

/**
 * Invite by e-mail: the organisation role, and optionally a workspace with a role in it (built-in
 * or custom). On success the dialog closes and the page says the invite was e-mailed.
 */
export function InviteDialog({
  open,
  onClose,
  onInvited,
  workspaces,
  roles,
  defaultWorkspaceId,
}: {
  open: boolean;
  onClose: () => void;
  onInvited: (invite: Invite) => void;
  workspaces: Workspace[];
  roles: Pick<Role, 'id' | 'name'>[];
  defaultWorkspaceId: string | null;
}) {
  const { t } = useTranslation();
  const [create] = useCreateInviteMutation();
  const form = useFormFields({
    email: '',
    organisationRole: 'member',
    workspaceId: defaultWorkspaceId ?? '',
    workspaceRole: 'developer',
  });

  function close() {
    form.reset();
    onClose();
  }

  const { workspaceId, workspaceRole, ...rest } = form.values;
  const onSubmit = form.handleSubmit({
    schema: inviteCreateRequestSchema,
    input: workspaceId ? { ...rest, workspaceId, workspaceRole } : rest,
    mutate: (body) => create(body),
    onSuccess: (invite) => {
      onInvited(invite);
      close();
    },
  });

  return (
    <FormDialog
      id="invite"
      form={form}
      open={open}
      title={t('team.invite.title')}
      submitLabel={t('team.invite.send')}
      onSubmit={onSubmit}
      onClose={close}
    >
      <TextField {...form.field('email')} type="email" label={t('auth.email')} autoFocus fullWidth />
      <SelectField
        {...form.field('organisationRole')}
        label={t('team.organisationRole')}
        fullWidth
        options={INVITABLE_ORGANISATION_ROLES.map((r) => ({ value: r, label: t(`team.orgRoles.${r}`) }))}
      />
      <SelectField
        {...form.field('workspaceId')}
        label={t('team.workspace')}
        fullWidth
        none={t('team.invite.noWorkspace')}
        options={namedOptions(workspaces)}
      />
      {form.values.workspaceId ? (
        <WorkspaceRoleSelect field={form.field('workspaceRole')} roles={roles} />
      ) : null}
    </FormDialog>
  );
}
