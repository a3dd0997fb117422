import MenuItem from '@mui/material/MenuItem';
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
import { useFormFields } from '../../ui/useFormFields';
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
      open={open}
      title={t('team.invite.title')}
      error={form.formError}
      submitLabel={t('team.invite.send')}
      busy={form.submitting}
      onSubmit={onSubmit}
      onClose={close}
      formRef={form.formRef}
    >
      <TextField {...form.field('email')} type="email" label={t('auth.email')} autoFocus fullWidth />
      <TextField {...form.field('organisationRole')} select label={t('team.organisationRole')} fullWidth>
        {INVITABLE_ORGANISATION_ROLES.map((r) => (
          <MenuItem key={r} value={r}>
            {t(`team.orgRoles.${r}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField {...form.field('workspaceId')} select label={t('team.workspace')} fullWidth>
        <MenuItem value="">{t('team.invite.noWorkspace')}</MenuItem>
        {workspaces.map((w) => (
          <MenuItem key={w.id} value={w.id}>
            {w.name}
          </MenuItem>
        ))}
      </TextField>
      {form.values.workspaceId ? (
        <TextField {...form.field('workspaceRole')} select label={t('team.workspaceRole')} fullWidth>
          {roles.map((r) => (
            <MenuItem key={r.id} value={r.id}>
              {r.name}
            </MenuItem>
          ))}
        </TextField>
      ) : null}
    </FormDialog>
  );
}
