import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import {
  ENVIRONMENT_TYPES,
  TASK_RUNNERS,
  environmentCreateSchema,
  environmentUpdateSchema,
  type Environment,
} from '@slipway/contracts';
import { FormDialog } from '../../ui/FormDialog';
import { useFormFields } from '../../ui/useFormFields';
import { useClustersQuery } from '../clusters/api';
import { useCreateEnvironmentMutation, useUpdateEnvironmentMutation } from './api';
import { selectOptions } from '../../ui/select-options';

/**
 * Create or edit an environment: name, description, type, a namespace on a cluster, and where a
 * run's tasks other than deploying run (the cluster, or Slipway's own sandboxed executor).
 */
export function EnvironmentDialog({
  environment,
  onClose,
}: {
  environment?: Environment;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [create] = useCreateEnvironmentMutation();
  const [update] = useUpdateEnvironmentMutation();
  const clusters = useClustersQuery({ _start: '0', _end: '500', _sort: 'name' });
  const form = useFormFields({
    name: environment?.name ?? '',
    description: environment?.description ?? '',
    type: environment?.type ?? '',
    clusterId: environment?.clusterId ?? '',
    namespace: environment?.namespace ?? '',
    taskRunner: environment?.taskRunner ?? 'cluster',
  });
  const v = form.values;
  const onSubmit = form.handleSubmit({
    schema: environment ? environmentUpdateSchema : environmentCreateSchema,
    input: {
      name: v.name,
      description: v.description,
      type: v.type || undefined,
      clusterId: v.clusterId || null,
      namespace: v.namespace.trim() || null,
      taskRunner: v.taskRunner as (typeof TASK_RUNNERS)[number],
    },
    mutate: (body) =>
      environment ? update({ id: environment.id, body }) : create(body as Parameters<typeof create>[0]),
    onSuccess: () => onClose(),
  });

  return (
    <FormDialog
      id="environment-dialog"
      title={environment ? t('environments.editTitle') : t('environments.createTitle')}
      error={form.formError}
      submitLabel={environment ? t('environments.form.save') : t('environments.form.create')}
      busy={form.submitting}
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
        {selectOptions(ENVIRONMENT_TYPES, (type) => [type, t(`environments.types.${type}`)])}
      </TextField>
      <TextField {...form.field('clusterId')} select label={t('environments.form.cluster')} fullWidth>
        <MenuItem value="">{t('environments.noCluster')}</MenuItem>
        {selectOptions(clusters.data?.rows, (c) => [c.id, c.name])}
      </TextField>
      <TextField {...form.field('namespace')} label={t('environments.form.namespace')} fullWidth />
      {v.clusterId && (
        <TextField
          {...form.field('taskRunner')}
          select
          label={t('environments.form.taskRunner')}
          helperText={form.field('taskRunner').helperText || t('environments.form.taskRunnerHelp')}
          fullWidth
        >
          {selectOptions(TASK_RUNNERS, (r) => [r, t(`environments.taskRunners.${r}`)])}
        </TextField>
      )}
    </FormDialog>
  );
}
