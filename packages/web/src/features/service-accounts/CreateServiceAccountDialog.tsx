import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { serviceAccountCreateRequestSchema, type Role, type Workspace } from '@slipway/contracts';
import { formErrors } from '../../app/api-error';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { useFormFields } from '../../ui/useFormFields';
import { useCreateServiceAccountMutation, type ServiceAccountCreated } from './api';
import { WorkspaceGrantsEditor, type WorkspaceGrant } from './WorkspaceGrantsEditor';

const DEFAULT_LIFETIME_DAYS = 90;

/** The date `days` from today as YYYY-MM-DD. */
export function dateInDays(days: number, from = new Date()): string {
  const d = new Date(from.getTime() + days * 86_400_000);
  return d.toISOString().slice(0, 10);
}

/** A new service account: name, expiry date and a role per workspace (its project permissions). */
export function CreateServiceAccountDialog({
  workspaces,
  roles,
  onClose,
  onCreated,
}: {
  workspaces: Workspace[];
  roles: Pick<Role, 'id' | 'name'>[];
  onClose: () => void;
  onCreated: (created: ServiceAccountCreated) => void;
}) {
  const { t } = useTranslation();
  const [create, { isLoading }] = useCreateServiceAccountMutation();
  const form = useFormFields({ name: '', expiresAt: dateInDays(DEFAULT_LIFETIME_DAYS) });
  const [grants, setGrants] = useState<WorkspaceGrant[]>(
    workspaces[0] ? [{ workspaceId: workspaces[0].id, role: 'developer' }] : [],
  );
  const [serverError, setServerError] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setServerError(null);
    const body = form.parse(serviceAccountCreateRequestSchema, { ...form.values, workspaces: grants });
    if (!body) {
      if (!form.values.name.trim() || !form.values.expiresAt) return;
      setServerError(t('serviceAccountsPage.create.workspacesInvalid'));
      return;
    }
    const answer = await create(body);
    if (answer.error) {
      const { fields, message } = formErrors(answer.error);
      form.showErrors(fields);
      setServerError(message);
      return;
    }
    onCreated(answer.data);
  }

  return (
    <Dialog
      open
      onClose={isLoading ? undefined : onClose}
      aria-labelledby="sa-create-title"
      fullWidth
      maxWidth="sm"
    >
      <form ref={form.formRef} noValidate onSubmit={onSubmit}>
        <DialogTitle id="sa-create-title">{t('serviceAccountsPage.create.title')}</DialogTitle>
        <DialogContent>
          <FormAlert message={serverError} />
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              {...form.field('name')}
              label={t('serviceAccountsPage.columns.name')}
              autoFocus
              fullWidth
            />
            <TextField
              {...form.field('expiresAt')}
              type="date"
              label={t('serviceAccountsPage.create.expiry')}
              fullWidth
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <WorkspaceGrantsEditor
              grants={grants}
              onChange={setGrants}
              workspaces={workspaces}
              roles={roles}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={isLoading}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={isLoading}>
            {t('serviceAccountsPage.create.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
