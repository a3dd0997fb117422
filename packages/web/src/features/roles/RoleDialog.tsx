import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { roleRequestSchema, type Role } from '@slipway/contracts';
import { formErrors } from '../../app/api-error';
import { FormAlert } from '../../ui/FormAlert';
import { FormDialog } from '../../ui/FormDialog';
import { useFormFields } from '../../ui/useFormFields';
import { useCreateRoleMutation, useUpdateRoleMutation } from './api';
import { PermissionMatrix } from './PermissionMatrix';
import { grantsToMatrix, matrixToGrants, setEnvironments, toggleAction } from './role-grants';

/** Creates a custom role, or edits one (`role`), with its name, description and permission matrix. */
export function RoleDialog({ role, onClose }: { role: Role | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [create, creating] = useCreateRoleMutation();
  const [update, updating] = useUpdateRoleMutation();
  const form = useFormFields({ name: role?.name ?? '', description: role?.description ?? '' });
  const [rows, setRows] = useState(() => grantsToMatrix(role?.grants ?? []));
  const [serverError, setServerError] = useState<string | null>(null);
  const busy = creating.isLoading || updating.isLoading;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setServerError(null);
    const body = form.parse(roleRequestSchema, { ...form.values, grants: matrixToGrants(rows) });
    if (!body) return;
    const answer = role ? await update({ id: role.id, body }) : await create(body);
    if (answer.error) {
      const { fields, message } = formErrors(answer.error);
      form.showErrors(fields);
      setServerError(message);
      return;
    }
    onClose();
  }

  const title = role ? t('roles.editTitle', { name: role.name }) : t('roles.createTitle');
  return (
    <FormDialog
      id="role-dialog"
      title={title}
      lead={<FormAlert message={serverError} />}
      submitLabel={role ? t('common.save') : t('roles.create')}
      busy={busy}
      onSubmit={onSubmit}
      onClose={onClose}
      formRef={form.formRef}
      maxWidth="md"
    >
      <TextField {...form.field('name')} label={t('roles.name')} autoFocus fullWidth />
      <TextField {...form.field('description')} label={t('roles.description')} fullWidth multiline />
      <PermissionMatrix
        rows={rows}
        onToggle={(resource, action) => setRows((r) => toggleAction(r, resource, action))}
        onEnvironments={(resource, text) => setRows((r) => setEnvironments(r, resource, text))}
      />
    </FormDialog>
  );
}
