import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ENVIRONMENT_TYPES,
  environmentCreateSchema,
  environmentUpdateSchema,
  type Environment,
} from '@slipway/contracts';
import { formErrors } from '../../app/api-error';
import { FormAlert } from '../../ui/FormAlert';
import { FormDialog } from '../../ui/FormDialog';
import { useFormFields } from '../../ui/useFormFields';
import { useClustersQuery } from '../clusters/api';
import { useCreateEnvironmentMutation, useUpdateEnvironmentMutation } from './api';

/** Create or edit an environment: name, description, type, and a namespace on a cluster. */
export function EnvironmentDialog({
  environment,
  onClose,
}: {
  environment?: Environment;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [create, created] = useCreateEnvironmentMutation();
  const [update, updated] = useUpdateEnvironmentMutation();
  const clusters = useClustersQuery({ _start: '0', _end: '500', _sort: 'name' });
  const form = useFormFields({
    name: environment?.name ?? '',
    description: environment?.description ?? '',
    type: environment?.type ?? '',
    clusterId: environment?.clusterId ?? '',
    namespace: environment?.namespace ?? '',
  });
  const [serverError, setServerError] = useState<string | null>(null);
  const busy = created.isLoading || updated.isLoading;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setServerError(null);
    const v = form.values;
    const input = {
      name: v.name,
      description: v.description,
      type: v.type || undefined,
      clusterId: v.clusterId || null,
      namespace: v.namespace.trim() || null,
    };
    const body = environment
      ? form.parse(environmentUpdateSchema, input)
      : form.parse(environmentCreateSchema, input);
    if (!body) return;
    const answer = environment
      ? await update({ id: environment.id, body })
      : await create(body as Parameters<typeof create>[0]);
    if (answer.error) {
      const { fields, message } = formErrors(answer.error);
      form.showErrors(fields);
      setServerError(message);
      return;
    }
    onClose();
  }

  return (
    <FormDialog
      id="environment-dialog"
      title={environment ? t('environments.editTitle') : t('environments.createTitle')}
      lead={
        <>
          <FormAlert message={serverError} />
        </>
      }
      submitLabel={environment ? t('environments.form.save') : t('environments.form.create')}
      busy={busy}
      onSubmit={onSubmit}
      onClose={onClose}
      formRef={form.formRef}
    >
      <TextField {...form.field('name')} label={t('environments.form.name')} autoFocus fullWidth />
      <TextField
        {...form.field('description')}
        label={t('environments.form.description')}
        fullWidth
        multiline
      />
      <TextField {...form.field('type')} select label={t('environments.form.type')} fullWidth>
        {ENVIRONMENT_TYPES.map((type) => (
          <MenuItem key={type} value={type}>
            {t(`environments.types.${type}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField {...form.field('clusterId')} select label={t('environments.form.cluster')} fullWidth>
        <MenuItem value="">{t('environments.noCluster')}</MenuItem>
        {(clusters.data?.rows ?? []).map((c) => (
          <MenuItem key={c.id} value={c.id}>
            {c.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField {...form.field('namespace')} label={t('environments.form.namespace')} fullWidth />
    </FormDialog>
  );
}
