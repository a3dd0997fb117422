import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { serviceAccountCreateRequestSchema, type Role, type Workspace } from '@slipway/contracts';
import { FormAlert } from '../../ui/FormAlert';
import { FormDialog } from '../../ui/FormDialog';
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
  const [create] = useCreateServiceAccountMutation();
  const form = useFormFields({
    name: '',
    expiresAt: dateInDays(DEFAULT_LIFETIME_DAYS),
    workspaces: (workspaces[0]
      ? [{ workspaceId: workspaces[0].id, role: 'developer' }]
      : []) as WorkspaceGrant[],
  });
  const onSubmit = form.handleSubmit({
    schema: serviceAccountCreateRequestSchema,
    check: () => ({
      workspaces: serviceAccountCreateRequestSchema.shape.workspaces.safeParse(form.values.workspaces).success
        ? undefined
        : t('serviceAccountsPage.create.workspacesInvalid'),
    }),
    mutate: (body) => create(body),
    onSuccess: (created) => onCreated(created),
  });
  // the grants have no field of their own: their message is the form's, once name and expiry are given
  const grantsError = form.values.name.trim() && form.values.expiresAt ? form.errors.workspaces : undefined;

  return (
    <FormDialog
      id="sa-create"
      form={form}
      error={null}
      title={t('serviceAccountsPage.create.title')}
      lead={<FormAlert message={grantsError ?? form.formError} />}
      submitLabel={t('serviceAccountsPage.create.submit')}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <TextField {...form.field('name')} label={t('serviceAccountsPage.columns.name')} autoFocus fullWidth />
      <TextField
        {...form.field('expiresAt')}
        type="date"
        label={t('serviceAccountsPage.create.expiry')}
        fullWidth
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <WorkspaceGrantsEditor form={form} workspaces={workspaces} roles={roles} />
    </FormDialog>
  );
}
