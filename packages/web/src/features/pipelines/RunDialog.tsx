import Add from '@mui/icons-material/Add';
import Delete from '@mui/icons-material/Delete';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS, type Environment } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { useOrganisationsQuery } from '../account/api';
import { useEnvironmentsQuery } from '../environments/api';
import { FormAlert } from '../../ui/FormAlert';
import { useFormFields } from '../../ui/useFormFields';
import {
  useInstantiateTemplateMutation,
  usePipelineQuery,
  usePipelinesQuery,
  useRunTemplateQuery,
  useRunTemplatesQuery,
  useStartRunMutation,
} from './api';
import type { ParamSpec } from './definition-params';
import { RunParamsFields, initialParamValues, missingParams, paramValuesToSend } from './RunParamsFields';
import { RunPrerequisites } from './RunPrerequisites';
import { selectOptions } from '../../ui/select-options';

/** Runs in an environment go to its cluster when it names a cluster and a namespace. */
const onCluster = (env: Environment | undefined) => Boolean(env?.clusterId && env.namespace);

interface ParamRow {
  key: number;
  name: string;
  value: string;
}

/** The declared params of a definition; the YAML grammar is loaded only when needed. */
function useDeclaredParams(definition: string | undefined): ParamSpec[] | null {
  const [declared, setDeclared] = useState<{ of: string; params: ParamSpec[] | null } | null>(null);
  useEffect(() => {
    if (definition === undefined) return;
    let cancelled = false;
    void import('./definition-params').then((m) => {
      if (!cancelled) setDeclared({ of: definition, params: m.readParams(definition) ?? [] });
    });
    return () => {
      cancelled = true;
    };
  }, [definition]);
  return declared && declared.of === definition ? declared.params : null;
}

/**
 * The initiate-run panel: prerequisites (cluster and registry, as they are), the pipeline
 * (unless the caller fixed it) or a pipeline template to run, a form of the pipeline's declared
 * params with their defaults, extra params as name = value rows, the environment (default none:
 * the local executor; one bound to a cluster runs the tasks there) and the timeout in hours
 * (default 1). On success it opens the new run.
 */
export function RunDialog({ pipelineId, onClose }: { pipelineId?: string; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const navigate = useNavigate();
  const { data: pipelines } = usePipelinesQuery({ _start: '0', _end: '500' }, { skip: Boolean(pipelineId) });
  // keys of their own, not the API's body fields: its messages about those go in the alert
  const form = useFormFields({
    chosen: pipelineId ?? '',
    template: '',
    extra: [] as ParamRow[],
    timeout: String(PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS),
    environment: '',
  });
  const { chosen, template: templateId, extra: rows, timeout, environment: environmentId } = form.values;
  const { data: environments } = useEnvironmentsQuery({
    _start: '0',
    _end: '500',
    _sort: 'name',
    _order: 'ASC',
  });
  const [startRun] = useStartRunMutation();
  const [instantiate] = useInstantiateTemplateMutation();
  const { data: templates } = useRunTemplatesQuery(undefined, { skip: Boolean(pipelineId) });
  const pipeline = pipelineId ?? (chosen || pipelines?.rows[0]?.id || '');
  const source = usePipelineQuery(pipeline, { skip: !pipeline || Boolean(templateId) });
  const template = useRunTemplateQuery(templateId, { skip: !templateId });
  const definition = templateId ? template.data?.definition : source.data?.definition;
  const declared = useDeclaredParams(definition);
  const [values, setValues] = useState<{ of: ParamSpec[] | null; v: Record<string, string> }>({
    of: null,
    v: {},
  });
  if (declared && values.of !== declared) setValues({ of: declared, v: initialParamValues(declared) });
  const hours = Number(timeout);
  const timeoutValid = Number.isFinite(hours) && hours > 0 && hours <= 168;
  // the organisation's cap on a run's duration, when it has one: the run ends there at the latest
  const { data: organisations } = useOrganisationsQuery();
  const cap = organisations?.find((o) => o.current)?.maxRunMinutes ?? null;
  const missing = declared ? missingParams(declared, values.v) : [];

  function update(key: number, patch: Partial<ParamRow>) {
    form.setValue(
      'extra',
      rows.map((r) => (r.key === key ? { ...r, ...patch } : r)),
    );
  }

  const submit = form.handleSubmit({
    // each of these already shows (a disabled button, the timeout's and the params' own messages)
    check: () => ({
      chosen: !pipeline && !templateId ? '' : undefined,
      timeout: timeoutValid ? undefined : '',
      params: missing.length > 0 ? '' : undefined,
    }),
    mutate: async () => {
      const extra = Object.fromEntries(
        rows.filter((r) => r.name.trim()).map((r) => [r.name.trim(), r.value]),
      );
      const params = { ...extra, ...(declared ? paramValuesToSend(declared, values.v) : {}) };
      let target = pipeline;
      if (templateId) {
        const name = template.data?.name ?? '';
        const existing = pipelines?.rows.find((p) => p.name === name);
        if (existing) target = existing.id;
        else {
          const made = await instantiate({ id: templateId, name });
          if (made.error) return { error: made.error };
          target = made.data.id;
        }
      }
      return startRun({
        pipelineId: target,
        params,
        timeoutHours: hours,
        ...(environmentId ? { environmentId } : {}),
      });
    },
    onSuccess: (run) => {
      onClose();
      void navigate(`/pipelines/runs/${run.id}`);
    },
  });

  return (
    <Dialog
      open
      onClose={form.submitting ? undefined : onClose}
      aria-labelledby={`${id}-title`}
      fullWidth
      maxWidth="sm"
    >
      <form ref={form.formRef} onSubmit={(e) => void submit(e)} noValidate>
        <DialogTitle id={`${id}-title`}>{t('pipelines.runDialog.title')}</DialogTitle>
        <DialogContent data-tour="run-input-panel">
          <FormAlert message={form.formError} />
          <Stack spacing={2} sx={{ pt: 1 }}>
            <RunPrerequisites />
            {pipelineId ? null : (
              <TextField
                select
                label={t('studio.runPanel.template')}
                value={templateId}
                onChange={(e) => form.setValue('template', e.target.value)}
                helperText={templateId ? t('studio.runPanel.templateHelp') : ' '}
                slotProps={{ htmlInput: { 'data-testid': 'run-template-select' } }}
              >
                <MenuItem value="">{t('studio.runPanel.noTemplate')}</MenuItem>
                {selectOptions(templates?.rows, (p) => [p.id, p.name])}
              </TextField>
            )}
            {pipelineId || templateId ? null : (
              <TextField
                select
                required
                label={t('pipelines.runDialog.pipeline')}
                value={pipelines?.rows.length ? pipeline : ''}
                onChange={(e) => form.setValue('chosen', e.target.value)}
                helperText={
                  pipelines && pipelines.rows.length === 0 ? t('pipelines.runDialog.noPipelines') : ' '
                }
                slotProps={{ htmlInput: { 'data-testid': 'run-pipeline-select' } }}
              >
                {selectOptions(pipelines?.rows, (p) => [p.id, p.name])}
              </TextField>
            )}
            <TextField
              select
              label={t('pipelines.runDialog.environment')}
              value={environmentId}
              onChange={(e) => form.setValue('environment', e.target.value)}
              helperText={
                environmentId
                  ? onCluster(environments?.rows.find((env) => env.id === environmentId))
                    ? t('pipelines.runDialog.environmentCluster')
                    : t('pipelines.runDialog.environmentNoCluster')
                  : ' '
              }
              slotProps={{
                htmlInput: { 'data-testid': 'run-environment-select' },
                select: { displayEmpty: true },
                inputLabel: { shrink: true },
              }}
            >
              <MenuItem value="">{t('pipelines.runDialog.noEnvironment')}</MenuItem>
              {(environments?.rows ?? []).map((env) => (
                <MenuItem key={env.id} value={env.id}>
                  {onCluster(env)
                    ? t('pipelines.runDialog.environmentOn', {
                        name: env.name,
                        cluster: env.clusterName ?? env.clusterId,
                        namespace: env.namespace,
                      })
                    : t('pipelines.runDialog.environmentLocal', { name: env.name })}
                </MenuItem>
              ))}
            </TextField>
            <Typography variant="subtitle2" component="h3">
              {t('pipelines.runDialog.params')}
            </Typography>
            {declared ? (
              <RunParamsFields
                params={declared}
                values={values.v}
                onChange={(v) => setValues({ of: declared, v })}
                showErrors={form.tried}
              />
            ) : definition !== undefined ? (
              <Typography color="text.secondary">{t('studio.runPanel.readingParams')}</Typography>
            ) : null}
            {rows.map((r) => (
              <Stack key={r.key} direction="row" spacing={1} alignItems="center">
                <TextField
                  size="small"
                  label={t('pipelines.runDialog.paramName')}
                  value={r.name}
                  onChange={(e) => update(r.key, { name: e.target.value })}
                />
                <TextField
                  size="small"
                  fullWidth
                  label={t('pipelines.runDialog.paramValue')}
                  value={r.value}
                  onChange={(e) => update(r.key, { value: e.target.value })}
                />
                <IconButton
                  aria-label={t('pipelines.runDialog.removeParam')}
                  onClick={() =>
                    form.setValue(
                      'extra',
                      rows.filter((x) => x.key !== r.key),
                    )
                  }
                >
                  <Delete />
                </IconButton>
              </Stack>
            ))}
            <div>
              <Button
                size="small"
                startIcon={<Add />}
                onClick={() =>
                  form.setValue('extra', [...rows, { key: Date.now() + rows.length, name: '', value: '' }])
                }
              >
                {t('pipelines.runDialog.addParam')}
              </Button>
            </div>
            <TextField
              type="number"
              label={t('pipelines.runDialog.timeout')}
              value={timeout}
              onChange={(e) => form.setValue('timeout', e.target.value)}
              error={!timeoutValid}
              helperText={
                !timeoutValid
                  ? t('pipelines.runDialog.timeoutInvalid')
                  : cap !== null
                    ? t('pipelines.runDialog.timeoutCap', { count: cap })
                    : ' '
              }
              slotProps={{ htmlInput: { min: 0.1, max: 168, step: 'any' } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={form.submitting}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            data-tour="run-start"
            variant="contained"
            loading={form.submitting}
            disabled={(!pipeline && !templateId) || !timeoutValid}
          >
            {t('pipelines.runDialog.start')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
