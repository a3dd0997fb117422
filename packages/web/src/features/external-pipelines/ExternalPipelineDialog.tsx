import DialogContentText from '@mui/material/DialogContentText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  errorResponseSchema,
  externalPipelineCreateSchema,
  type ExternalPipeline,
  type ExternalPipelineCreate,
} from '@slipway/contracts';
import { errorMessage, type ApiError } from '../../app/api-error';
import { FormAlert } from '../../ui/FormAlert';
import { FormDialog } from '../../ui/FormDialog';
import { useSecretsQuery } from '../secrets/api';
import { useCreateExternalPipelineMutation, useUpdateExternalPipelineMutation } from './api';

interface Values {
  name: string;
  description: string;
  url: string;
  revision: string;
  path: string;
  secret: string;
}
type Field = keyof Values;

const FIELDS: Field[] = ['name', 'description', 'url', 'revision', 'path', 'secret'];

/** The API's per-field details of a failed call (paths such as `body.source.url`). */
function detailsOf(error: ApiError): { path: string; message: string }[] {
  if (!error || !('status' in error)) return [];
  const parsed = errorResponseSchema.safeParse(error.data);
  return parsed.success ? (parsed.data.details ?? []) : [];
}

/** A zod issue path (`source.url`) or an API detail path (`body.source.url`) → the form field. */
function fieldOf(path: string): Field | undefined {
  const last = path
    .replace(/^body\./, '')
    .split('.')
    .filter(Boolean);
  const key = (last[0] === 'source' ? last[1] : last[0]) as Field | undefined;
  return key && FIELDS.includes(key) ? key : undefined;
}

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
  const [create, creating] = useCreateExternalPipelineMutation();
  const [update, updating] = useUpdateExternalPipelineMutation();
  const busy = creating.isLoading || updating.isLoading;
  const [values, setValues] = useState<Values>({
    name: pipeline?.name ?? '',
    description: pipeline?.description ?? '',
    url: pipeline?.source.url ?? '',
    revision: pipeline?.source.revision ?? 'main',
    path: pipeline?.source.path ?? '.tekton/pipeline.yaml',
    secret: pipeline?.source.secret ?? '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const set = (name: Field, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => ({ ...e, [name]: undefined }));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setServerError(null);
    const input = {
      name: values.name,
      description: values.description,
      source: {
        url: values.url,
        revision: values.revision || 'main',
        path: values.path,
        secret: values.secret || null,
      },
    };
    const parsed = externalPipelineCreateSchema.safeParse(input);
    if (!parsed.success) {
      const byField: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const key = fieldOf(issue.path.join('.'));
        if (key && !byField[key]) byField[key] = issue.message;
      }
      setErrors(byField);
      return;
    }
    const body: ExternalPipelineCreate = parsed.data;
    const answer = pipeline ? await update({ id: pipeline.id, body }) : await create(body);
    if (answer.error) {
      const byField: Partial<Record<Field, string>> = {};
      for (const d of detailsOf(answer.error)) {
        const key = fieldOf(d.path);
        if (key && !byField[key]) byField[key] = d.message;
      }
      setErrors(byField);
      const message = errorMessage(answer.error);
      setServerError(Object.values(byField).includes(message) ? null : message);
      return;
    }
    onClose();
  }

  const field = (name: Field) => ({
    id: `external-pipeline-${name}`,
    name,
    value: values[name],
    error: Boolean(errors[name]),
    helperText: errors[name] ?? t(`externalPipelines.form.${name}Help`),
    fullWidth: true,
    onChange: (e: { target: { value: string } }) => set(name, e.target.value),
  });

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
          <FormAlert message={serverError} />
        </>
      }
      submitLabel={pipeline ? t('common.save') : t('externalPipelines.form.add')}
      busy={busy}
      onSubmit={(e) => void submit(e)}
      onClose={onClose}
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
