import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { roleRequestSchema, type Role } from '@slipway/contracts';
import { FormDialog } from '../../ui/FormDialog';
import { useFormFields } from '../../ui/useFormFields';
import { useCreateRoleMutation, useUpdateRoleMutation } from './api';
import { PermissionMatrix } from './PermissionMatrix';
import { grantsToMatrix, matrixToGrants, setEnvironments, toggleAction } from './role-grants';

/** Creates a custom role, or edits one (`role`), with its name, description and permission matrix. */
export function RoleDialog({ role, onClose }: { role: Role | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [create] = useCreateRoleMutation();
  const [update] = useUpdateRoleMutation();
  const form = useFormFields({ name: role?.name ?? '', description: role?.description ?? '' });
  const [rows, setRows] = useState(() => grantsToMatrix(role?.grants ?? []));
  const onSubmit = form.handleSubmit({
    schema: roleRequestSchema,
    input: { ...form.values, grants: matrixToGrants(rows) },
    mutate: (body) => (role ? update({ id: role.id, body }) : create(body)),
    onSuccess: () => onClose(),
  });

  const title = role ? t('roles.editTitle', { name: role.name }) : t('roles.createTitle');
  return (
    <FormDialog
      id="role-dialog"
      form={form}
      title={title}
      submitLabel={role ? t('common.save') : t('roles.create')}
      onSubmit={onSubmit}
      onClose={onClose}
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
