import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { PipelineSummary } from '@slipway/contracts';
import { FormDialog } from '../../ui/FormDialog';
import { useFormFields } from '../../ui/useFormFields';
import { useInstantiatePipelineTemplateMutation } from './api';

/** "Use template": asks for the new pipeline's name, creates it from the template and opens it. */
export function UseTemplateDialog({ template, onClose }: { template: PipelineSummary; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [instantiate] = useInstantiatePipelineTemplateMutation();
  const form = useFormFields({ name: template.name });
  const name = form.values.name.trim();
  const submit = form.handleSubmit({
    // an empty name already says so and disables the button
    check: () => ({ name: name ? undefined : '' }),
    mutate: () => instantiate({ id: template.id, name }),
    onSuccess: (created) => navigate(`/pipelines/${created.id}`),
  });
  const field = form.field('name');

  return (
    <FormDialog
      id="use-template"
      title={t('catalogue.useTitle', { name: template.name })}
      error={form.formError}
      submitLabel={t('catalogue.createPipeline')}
      busy={form.submitting}
      submitDisabled={!name}
      onSubmit={submit}
      onClose={onClose}
      formRef={form.formRef}
      maxWidth="xs"
    >
      <TextField
        {...field}
        label={t('catalogue.pipelineName')}
        required
        autoFocus
        error={!name || field.error}
        helperText={!name ? t('catalogue.nameRequired') : (field.helperText ?? ' ')}
      />
    </FormDialog>
  );
}
