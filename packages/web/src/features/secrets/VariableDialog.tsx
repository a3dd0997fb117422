import TextField from '@mui/material/TextField';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { variableCreateSchema, type Variable } from '@slipway/contracts';
import { FormDialog } from '../../ui/FormDialog';
import { useFormFields } from '../../ui/useFormFields';
import { useCreateVariableMutation, useUpdateVariableMutation } from './api';

/** Creates or changes a variable: a name, a plain value that steps can read, a description. */
export function VariableDialog({ variable, onClose }: { variable: Variable | null; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const form = useFormFields({
    name: variable?.name ?? '',
    value: variable?.value ?? '',
    description: variable?.description ?? '',
  });
  const [create] = useCreateVariableMutation();
  const [update] = useUpdateVariableMutation();
  const submit = form.handleSubmit({
    schema: variableCreateSchema,
    mutate: (body) => (variable ? update({ id: variable.id, body }) : create(body)),
    onSuccess: () => onClose(),
  });
  // a line under every field, so the dialog keeps its height when a message appears
  const field = (name: 'name' | 'value' | 'description') => {
    const props = form.field(name);
    return { ...props, helperText: props.helperText ?? ' ' };
  };

  return (
    <FormDialog
      id={id}
      title={variable ? t('secretsPage.editVariable', { name: variable.name }) : t('secretsPage.newVariable')}
      error={form.formError}
      submitLabel={variable ? t('secretsPage.save') : t('secretsPage.create')}
      busy={form.submitting}
      onSubmit={submit}
      onClose={onClose}
      formRef={form.formRef}
    >
      <TextField {...field('name')} label={t('secretsPage.name')} required />
      <TextField {...field('value')} label={t('secretsPage.value')} multiline />
      <TextField {...field('description')} label={t('secretsPage.description')} />
    </FormDialog>
  );
}
