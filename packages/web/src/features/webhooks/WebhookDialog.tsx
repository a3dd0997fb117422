import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import {
  WEBHOOK_EVENTS,
  WEBHOOK_TYPES,
  webhookCreateSchema,
  webhookUpdateSchema,
  type Webhook,
  type WebhookType,
  type WebhookWithSecret,
} from '@slipway/contracts';
import { FormAlert } from '../../ui/FormAlert';
import { FormDialog } from '../../ui/FormDialog';
import { useFormFields } from '../../ui/useFormFields';
import { usePipelinesQuery } from '../pipelines/api';
import { useCreateWebhookMutation, useUpdateWebhookMutation } from './api';
import { selectOptions } from '../../ui/select-options';

/**
 * Creates a webhook (then the caller shows its URL and secret once) or edits one: the pipeline
 * it starts, the provider, the event and the branch glob. Checked with the contracts' schema,
 * then by the server; each message is shown under its field.
 */
export function WebhookDialog({
  webhook,
  onClose,
  onCreated,
}: {
  webhook?: Webhook;
  onClose: () => void;
  onCreated: (created: WebhookWithSecret) => void;
}) {
  const { t } = useTranslation();
  const { data: pipelines, isLoading: loadingPipelines } = usePipelinesQuery({ _start: '0', _end: '500' });
  const [create] = useCreateWebhookMutation();
  const [update] = useUpdateWebhookMutation();
  const form = useFormFields(
    {
      pipelineId: webhook?.pipelineId ?? '',
      type: webhook?.type ?? ('github' as WebhookType),
      event: webhook?.event ?? 'push',
      branch: webhook?.branch ?? '*',
    },
    { idPrefix: 'webhook' },
  );
  const values = form.values;
  const submit = form.handleSubmit({
    schema: webhook ? webhookUpdateSchema : webhookCreateSchema,
    input: { ...values, pipelineId: values.pipelineId || undefined },
    check: () => ({ pipelineId: values.pipelineId ? undefined : t('webhooks.form.pipelineRequired') }),
    mutate: (body) =>
      webhook ? update({ id: webhook.id, body }) : create(body as Parameters<typeof create>[0]),
    onSuccess: (saved) => (webhook ? onClose() : onCreated(saved as WebhookWithSecret)),
  });

  const noPipelines = !loadingPipelines && pipelines?.rows.length === 0;
  const field = (name: 'pipelineId' | 'type' | 'event' | 'branch') => ({
    ...form.field(name),
    fullWidth: true,
  });

  return (
    <FormDialog
      id="webhook-dialog"
      title={webhook ? t('webhooks.form.editTitle') : t('webhooks.form.createTitle')}
      error={form.formError}
      lead={noPipelines ? <FormAlert severity="info" message={t('webhooks.form.noPipelines')} /> : null}
      submitLabel={webhook ? t('common.save') : t('webhooks.form.create')}
      busy={form.submitting}
      submitDisabled={noPipelines}
      onSubmit={submit}
      onClose={onClose}
      formRef={form.formRef}
    >
      <TextField {...field('pipelineId')} select label={t('webhooks.form.pipeline')} autoFocus>
        {selectOptions(pipelines?.rows, (p) => [p.id, p.name])}
      </TextField>
      <TextField
        {...field('type')}
        select
        label={t('webhooks.form.type')}
        onChange={(e) => {
          const type = e.target.value as WebhookType;
          form.setValue('type', type);
          form.setValue('event', WEBHOOK_EVENTS[type][0]!);
        }}
      >
        {selectOptions(WEBHOOK_TYPES, (type) => [type, t(`webhooks.types.${type}`)])}
      </TextField>
      <TextField {...field('event')} select label={t('webhooks.form.event')}>
        {selectOptions(WEBHOOK_EVENTS[values.type], (event) => [event, event])}
      </TextField>
      <TextField
        {...field('branch')}
        label={t('webhooks.form.branch')}
        helperText={form.errors.branch ?? t('webhooks.form.branchHelp')}
      />
    </FormDialog>
  );
}
