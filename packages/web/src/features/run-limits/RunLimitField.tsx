import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { MAX_RUNS_IN_PROGRESS_LIMIT, maxRunsInProgressSchema, type RunLimit } from '@slipway/contracts';
import { FormAlert } from '../../ui/FormAlert';
import { Loaded } from '../../ui/Loaded';
import { useFormFields } from '../../ui/useFormFields';
import { AllowedButton } from '../access/AllowedButton';
import { usePermission } from '../access/usePermission';
import { useRunLimitQuery, useSetRunLimitMutation, type RunLimitTarget } from './api';

const runLimitFormSchema = z.object({ maxRunsInProgress: maxRunsInProgressSchema });

/**
 * A workspace's or pipeline's limit on its runs in progress at once (empty: the default). Those
 * who may edit the workspace (or the pipeline) change it; everyone else sees it.
 */
export function RunLimitField({ target, label }: { target: RunLimitTarget; label: string }) {
  const query = useRunLimitQuery(target);
  return (
    <Loaded query={query} lines={1} what={label}>
      {(limit) => (
        <RunLimitForm
          key={`${target.id}-${limit.maxRunsInProgress}`}
          target={target}
          label={label}
          limit={limit}
        />
      )}
    </Loaded>
  );
}

function RunLimitForm({ target, label, limit }: { target: RunLimitTarget; label: string; limit: RunLimit }) {
  const { t } = useTranslation();
  const canEdit = usePermission(target.kind === 'workspaces' ? 'workspace:edit' : 'pipelines:edit').allowed;
  const [update] = useSetRunLimitMutation();
  const form = useFormFields({ maxRunsInProgress: limit.maxRunsInProgress?.toString() ?? '' });
  const text = form.values.maxRunsInProgress.trim();
  const submit = form.handleSubmit({
    schema: runLimitFormSchema,
    input: { maxRunsInProgress: text === '' ? null : Number(text) },
    mutate: (body) => update({ ...target, maxRunsInProgress: body.maxRunsInProgress }),
  });
  const field = form.field('maxRunsInProgress');
  const capped =
    limit.workspaceLimit !== undefined && limit.effective < (limit.maxRunsInProgress ?? limit.defaultLimit);
  return (
    <form ref={form.formRef} noValidate onSubmit={submit} aria-label={label}>
      <FormAlert message={form.formError} />
      <FormAlert message={form.succeeded ? t('runLimits.saved') : null} severity="success" />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems="flex-start">
        <TextField
          {...field}
          type="number"
          label={label}
          placeholder={String(limit.defaultLimit)}
          helperText={
            field.helperText ??
            t('runLimits.hint', { max: MAX_RUNS_IN_PROGRESS_LIMIT, default: limit.defaultLimit })
          }
          disabled={!canEdit}
          slotProps={{ htmlInput: { min: 1, max: MAX_RUNS_IN_PROGRESS_LIMIT, step: 1 } }}
          sx={{ width: { xs: '100%', sm: 280 } }}
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
      <Typography variant="body2" color="text.secondary" role="status" sx={{ mt: 1 }}>
        {capped
          ? t('runLimits.pipeline.capped', { workspace: limit.workspaceLimit, effective: limit.effective })
          : t('runLimits.inForce', { effective: limit.effective })}
      </Typography>
    </form>
  );
}
