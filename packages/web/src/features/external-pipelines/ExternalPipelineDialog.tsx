import DialogContentText from '@mui/material/DialogContentText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { externalPipelineCreateSchema, type ExternalPipeline } from '@slipway/contracts';
import { FormAlert } from '../../ui/FormAlert';
import { FormDialog } from '../../ui/FormDialog';
import { useFormFields } from '../../ui/useFormFields';
import { useSecretsQuery } from '../secrets/api';
import { useCreateExternalPipelineMutation, useUpdateExternalPipelineMutation } from './api';

/**
 * Adds an external pipeline or edits one: a name, and where its Tekton definition is (repository
 * URL, branch/tag/commit, path of the file, and a secret for a private repository). The
 * server reads and validates the file before anything is saved; its message goes under the field.
 */
export function ExternalPipelineDialog({
  pipeline,
  onClose,
}: {
  pipeline?: ExternalPipeline;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { data: secrets } = useSecretsQuery({ _start: '0', _end: '500' });
  const [create] = useCreateExternalPipelineMutation();
  const [update] = useUpdateExternalPipelineMutation();
  const form = useFormFields(
    {
      name: pipeline?.name ?? '',
      description: pipeline?.description ?? '',
      url: pipeline?.source.url ?? '',
      revision: pipeline?.source.revision ?? 'main',
      path: pipeline?.source.path ?? '.tekton/pipeline.yaml',
      secret: pipeline?.source.secret ?? '',
    },
    { idPrefix: 'external-pipeline' },
  );
  const values = form.values;
  // `source.url` in the schema and `body.source.url` in the API's details are the field `url`
  const submit = form.handleSubmit({
    schema: externalPipelineCreateSchema,
    input: {
      name: values.name,
      description: values.description,
      source: {
        url: values.url,
        revision: values.revision || 'main',
        path: values.path,
        secret: values.secret || null,
      },
    },
    mutate: (body) => (pipeline ? update({ id: pipeline.id, body }) : create(body)),
    onSuccess: () => onClose(),
  });

  const field = (name: keyof typeof values) => {
    const props = form.field(name);
    return {
      ...props,
      helperText: props.helperText ?? t(`externalPipelines.form.${name}Help`),
      fullWidth: true,
    };
  };

  return (
    <FormDialog
      id="external-pipeline-dialog"
      title={
        pipeline
          ? t('externalPipelines.form.editTitle', { name: pipeline.name })
          : t('externalPipelines.form.createTitle')
      }
      lead={
        <>
          <DialogContentText sx={{ mb: 1 }}>{t('externalPipelines.form.intro')}</DialogContentText>
          <FormAlert message={form.formError} />
        </>
      }
      submitLabel={pipeline ? t('common.save') : t('externalPipelines.form.add')}
      busy={form.submitting}
      onSubmit={submit}
      onClose={onClose}
      formRef={form.formRef}
    >
      <TextField {...field('name')} label={t('externalPipelines.form.name')} autoFocus required />
      <TextField {...field('description')} label={t('externalPipelines.form.description')} />
      <TextField {...field('url')} label={t('externalPipelines.form.url')} required />
      <TextField {...field('revision')} label={t('externalPipelines.form.revision')} />
      <TextField {...field('path')} label={t('externalPipelines.form.path')} required />
      <TextField {...field('secret')} select label={t('externalPipelines.form.secret')}>
        <MenuItem value="">{t('externalPipelines.form.noSecret')}</MenuItem>
        {(secrets?.rows ?? []).map((s) => (
          <MenuItem key={s.id} value={s.name}>
            {s.name}
          </MenuItem>
        ))}
      </TextField>
    </FormDialog>
  );
}
