import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { MAX_RUN_MINUTES_LIMIT, maxRunMinutesSchema, type Organisation } from '@slipway/contracts';
import { FormAlert } from '../../ui/FormAlert';
import { Loaded } from '../../ui/Loaded';
import { useFormFields } from '../../ui/useFormFields';
import { AllowedButton } from '../access/AllowedButton';
import { usePermission } from '../access/usePermission';
import { useOrganisationsQuery, useUpdateOrganisationMutation } from './api';

const runLimitFormSchema = z.object({ maxRunMinutes: maxRunMinutesSchema });

/**
 * The current organisation's cap on a run's duration, in minutes (empty: no cap). Organisation
 * admins change it; everyone else sees it.
 */
export function RunLimitSection() {
  const { t } = useTranslation();
  const query = useOrganisationsQuery();
  const current = { ...query, data: query.data?.find((o) => o.current) };
  return (
    <Loaded query={current} lines={2} what={t('account.organisationsLoadError')}>
      {(organisation) => <RunLimitForm key={organisation.id} organisation={organisation} />}
    </Loaded>
  );
}

function RunLimitForm({ organisation }: { organisation: Organisation }) {
  const { t } = useTranslation();
  const canEdit = usePermission('organisation:edit').allowed;
  const [update] = useUpdateOrganisationMutation();
  const form = useFormFields({ maxRunMinutes: organisation.maxRunMinutes?.toString() ?? '' });
  const text = form.values.maxRunMinutes.trim();
  const submit = form.handleSubmit({
    schema: runLimitFormSchema,
    input: { maxRunMinutes: text === '' ? null : Number(text) },
    mutate: (body) => update({ id: organisation.id, maxRunMinutes: body.maxRunMinutes }),
  });

  const field = form.field('maxRunMinutes');
  return (
    <form ref={form.formRef} noValidate onSubmit={submit} aria-label={t('account.runLimit.title')}>
      <FormAlert message={form.formError} />
      <FormAlert message={form.succeeded ? t('account.runLimit.saved') : null} severity="success" />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('account.runLimit.description')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems="flex-start">
        <TextField
          {...field}
          type="number"
          label={t('account.runLimit.field')}
          placeholder={t('account.runLimit.none')}
          helperText={field.helperText ?? t('account.runLimit.hint', { max: MAX_RUN_MINUTES_LIMIT })}
          disabled={!canEdit}
          slotProps={{ htmlInput: { min: 1, max: MAX_RUN_MINUTES_LIMIT, step: 1 } }}
          sx={{ minWidth: 280 }}
        />
        <AllowedButton
          allowed={canEdit}
          type="submit"
          variant="contained"
          loading={form.submitting}
          sx={{ mt: 1 }}
        >
          {t('common.save')}
        </AllowedButton>
      </Stack>
    </form>
  );
}
