import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  INVITABLE_ORGANISATION_ROLES,
  inviteCreateRequestSchema,
  type Invite,
  type Role,
  type Workspace,
} from '@slipway/contracts';
import { formErrors } from '../../app/api-error';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
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
  const [create, { isLoading }] = useCreateInviteMutation();
  const form = useFormFields({
    email: '',
    organisationRole: 'member',
    workspaceId: defaultWorkspaceId ?? '',
    workspaceRole: 'developer',
  });
  const [serverError, setServerError] = useState<string | null>(null);

  function close() {
    form.reset();
    setServerError(null);
    onClose();
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setServerError(null);
    const { workspaceId, workspaceRole, ...rest } = form.values;
    const input = workspaceId ? { ...rest, workspaceId, workspaceRole } : rest;
    const body = form.parse(inviteCreateRequestSchema, input);
    if (!body) return;
    const answer = await create(body);
    if (answer.error) {
      const { fields, message } = formErrors(answer.error);
      form.showErrors(fields);
      setServerError(message);
      return;
    }
    onInvited(answer.data);
    close();
  }

  return (
    <Dialog
      open={open}
      onClose={isLoading ? undefined : close}
      aria-labelledby="invite-title"
      fullWidth
      maxWidth="sm"
    >
      <form ref={form.formRef} noValidate onSubmit={onSubmit}>
        <DialogTitle id="invite-title">{t('team.invite.title')}</DialogTitle>
        <DialogContent>
          <FormAlert message={serverError} />
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField {...form.field('email')} type="email" label={t('auth.email')} autoFocus fullWidth />
            <TextField
              {...form.field('organisationRole')}
              select
              label={t('team.organisationRole')}
              fullWidth
            >
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
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={isLoading}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={isLoading}>
            {t('team.invite.send')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
