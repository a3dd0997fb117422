import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { variableNameSchema, type Variable } from '@slipway/contracts';
import { formErrors } from '../../app/api-error';
import { FormAlert } from '../../ui/FormAlert';
import { FormDialog } from '../../ui/FormDialog';
import { useCreateVariableMutation, useUpdateVariableMutation } from './api';

/** Creates or changes a variable: a name, a plain value that steps can read, a description. */
export function VariableDialog({ variable, onClose }: { variable: Variable | null; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [name, setName] = useState(variable?.name ?? '');
  const [value, setValue] = useState(variable?.value ?? '');
  const [description, setDescription] = useState(variable?.description ?? '');
  const [tried, setTried] = useState(false);
  const [create, created] = useCreateVariableMutation();
  const [update, updated] = useUpdateVariableMutation();
  const error = variable ? updated.error : created.error;
  const saving = created.isLoading || updated.isLoading;
  const { fields, message } = formErrors(error);
  const check = variableNameSchema.safeParse(name);
  const nameError = tried && !check.success ? check.error.issues[0]!.message : (fields.name ?? '');

  function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (!check.success) return;
    const body = { name: name.trim(), value, description };
    const done = variable ? update({ id: variable.id, body }).unwrap() : create(body).unwrap();
    done.then(onClose).catch(() => undefined);
  }

  return (
    <FormDialog
      id={id}
      title={variable ? t('secretsPage.editVariable', { name: variable.name }) : t('secretsPage.newVariable')}
      lead={<FormAlert message={error ? message : null} />}
      submitLabel={variable ? t('secretsPage.save') : t('secretsPage.create')}
      busy={saving}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label={t('secretsPage.name')}
        value={name}
        required
        onChange={(e) => setName(e.target.value)}
        error={Boolean(nameError)}
        helperText={nameError || ' '}
      />
      <TextField
        label={t('secretsPage.value')}
        value={value}
        multiline
        onChange={(e) => setValue(e.target.value)}
        error={Boolean(fields.value)}
        helperText={fields.value ?? ' '}
      />
      <TextField
        label={t('secretsPage.description')}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        error={Boolean(fields.description)}
        helperText={fields.description ?? ' '}
      />
    </FormDialog>
  );
}
