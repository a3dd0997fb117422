import { useTranslation } from 'react-i18next';
import {
  serviceAccountWorkspacesRequestSchema,
  type Role,
  type ServiceAccount,
  type Workspace,
} from '@slipway/contracts';
import { FormAlert } from '../../ui/FormAlert';
import { FormDialog } from '../../ui/FormDialog';
import { useFormFields } from '../../ui/useFormFields';
import { useSetServiceAccountWorkspacesMutation } from './api';
import { WorkspaceGrantsEditor, type WorkspaceGrant } from './WorkspaceGrantsEditor';

/** Changes an existing service account's project permissions (a role per workspace); its token stays. */
export function EditPermissionsDialog({
  account,
  workspaces,
  roles,
  onClose,
}: {
  account: ServiceAccount;
  workspaces: Workspace[];
  roles: Pick<Role, 'id' | 'name'>[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const form = useFormFields({ workspaces: account.workspaces as WorkspaceGrant[] });
  const [save] = useSetServiceAccountWorkspacesMutation();
  const submit = form.handleSubmit({
    schema: serviceAccountWorkspacesRequestSchema,
    check: () => ({
      workspaces: serviceAccountWorkspacesRequestSchema.safeParse(form.values).success
        ? undefined
        : t('serviceAccountsPage.create.workspacesInvalid'),
    }),
    mutate: (body) => save({ id: account.id, workspaces: body.workspaces }),
    onSuccess: () => onClose(),
  });

  return (
    <FormDialog
      id="sa-edit"
      form={form}
      error={null}
      title={t('serviceAccountsPage.edit.title', { name: account.name })}
      lead={<FormAlert message={form.errors.workspaces ?? form.formError} />}
      submitLabel={t('common.save')}
      onSubmit={submit}
      onClose={onClose}
    >
      <WorkspaceGrantsEditor form={form} workspaces={workspaces} roles={roles} />
    </FormDialog>
  );
}
