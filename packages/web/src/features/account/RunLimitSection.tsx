import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { MAX_RUN_MINUTES_LIMIT, maxRunMinutesSchema, type Organisation } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { LoadError } from '../../ui/LoadError';
import { Skeleton } from '../../ui/Skeleton';
import { useFormFields } from '../../ui/useFormFields';
import { NotAllowedTooltip } from '../access/Can';
import { usePermission } from '../access/usePermission';
import { useOrganisationsQuery, useUpdateOrganisationMutation } from './api';

const runLimitFormSchema = z.object({ maxRunMinutes: maxRunMinutesSchema });

/**
 * The current organisation's cap on a run's duration, in minutes (empty: no cap). Organisation
 * admins change it; everyone else sees it.
 */
export function RunLimitSection() {
  const { t } = useTranslation();
  const { data, error, isLoading, isFetching, refetch } = useOrganisationsQuery();
  const organisation = data?.find((o) => o.current);
  if (isLoading) return <Skeleton lines={2} />;
  if (!organisation)
    return (
      <LoadError
        what={t('account.organisationsLoadError')}
        error={error}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  return <RunLimitForm key={organisation.id} organisation={organisation} />;
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
        <NotAllowedTooltip allowed={canEdit}>
          <Button
            type="submit"
            variant="contained"
            disabled={!canEdit}
            loading={form.submitting}
            sx={{ mt: 1 }}
          >
            {t('common.save')}
          </Button>
        </NotAllowedTooltip>
      </Stack>
    </form>
  );
}
