import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
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
import { formErrors } from '../../app/api-error';
import { FormAlert } from '../../ui/FormAlert';
import { FormDialog } from '../../ui/FormDialog';
import { issuesByField } from '../../ui/useFormFields';
import { usePipelinesQuery } from '../pipelines/api';
import { useCreateWebhookMutation, useUpdateWebhookMutation } from './api';

interface Values {
  pipelineId: string;
  type: WebhookType;
  event: string;
  branch: string;
}

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
  const [create, creating] = useCreateWebhookMutation();
  const [update, updating] = useUpdateWebhookMutation();
  const busy = creating.isLoading || updating.isLoading;
  const [values, setValues] = useState<Values>({
    pipelineId: webhook?.pipelineId ?? '',
    type: webhook?.type ?? 'github',
    event: webhook?.event ?? 'push',
    branch: webhook?.branch ?? '*',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const set = (patch: Partial<Values>) => {
    setValues((v) => ({ ...v, ...patch }));
    setErrors((e) => {
      const next = { ...e };
      for (const k of Object.keys(patch)) delete next[k];
      return next;
    });
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setServerError(null);
    const input = { ...values, pipelineId: values.pipelineId || undefined };
    const parsed = (webhook ? webhookUpdateSchema : webhookCreateSchema).safeParse(input);
    if (!parsed.success) {
      const byField = issuesByField(parsed.error.issues);
      if (!values.pipelineId) byField.pipelineId = t('webhooks.form.pipelineRequired');
      setErrors(byField);
      return;
    }
    const answer = webhook
      ? await update({ id: webhook.id, body: parsed.data })
      : await create(parsed.data as Parameters<typeof create>[0]);
    if (answer.error) {
      const { fields, message } = formErrors(answer.error);
      setErrors(fields);
      setServerError(message);
      return;
    }
    if (webhook) onClose();
    else onCreated(answer.data as WebhookWithSecret);
  }

  const noPipelines = !loadingPipelines && pipelines?.rows.length === 0;
  const field = (name: keyof Values) => ({
    id: `webhook-${name}`,
    name,
    value: values[name],
    error: Boolean(errors[name]),
    helperText: errors[name],
    fullWidth: true,
  });

  return (
    <FormDialog
      id="webhook-dialog"
      title={webhook ? t('webhooks.form.editTitle') : t('webhooks.form.createTitle')}
      lead={
        <>
          <FormAlert message={serverError} />
          {noPipelines ? <FormAlert severity="info" message={t('webhooks.form.noPipelines')} /> : null}
        </>
      }
      submitLabel={webhook ? t('common.save') : t('webhooks.form.create')}
      busy={busy}
      submitDisabled={noPipelines}
      onSubmit={(e) => void submit(e)}
      onClose={onClose}
    >
      <TextField
        {...field('pipelineId')}
        select
        label={t('webhooks.form.pipeline')}
        onChange={(e) => set({ pipelineId: e.target.value })}
        autoFocus
      >
        {(pipelines?.rows ?? []).map((p) => (
          <MenuItem key={p.id} value={p.id}>
            {p.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        {...field('type')}
        select
        label={t('webhooks.form.type')}
        onChange={(e) => {
          const type = e.target.value as WebhookType;
          set({ type, event: WEBHOOK_EVENTS[type][0]! });
        }}
      >
        {WEBHOOK_TYPES.map((type) => (
          <MenuItem key={type} value={type}>
            {t(`webhooks.types.${type}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        {...field('event')}
        select
        label={t('webhooks.form.event')}
        onChange={(e) => set({ event: e.target.value })}
      >
        {WEBHOOK_EVENTS[values.type].map((event) => (
          <MenuItem key={event} value={event}>
            {event}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        {...field('branch')}
        label={t('webhooks.form.branch')}
        onChange={(e) => set({ branch: e.target.value })}
        helperText={errors.branch ?? t('webhooks.form.branchHelp')}
      />
    </FormDialog>
  );
}
