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
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS, type Environment } from '@slipway/contracts';
import { errorMessage } from '../../app/api-error';
import { Button } from '../../ui/Button';
import { useOrganisationsQuery } from '../account/api';
import { useEnvironmentsQuery } from '../environments/api';
import { FormAlert } from '../../ui/FormAlert';
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
  const [chosen, setChosen] = useState(pipelineId ?? '');
  const [templateId, setTemplateId] = useState('');
  const [rows, setRows] = useState<ParamRow[]>([]);
  const [timeout, setTimeoutHours] = useState(String(PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS));
  const [environmentId, setEnvironmentId] = useState('');
  const { data: environments } = useEnvironmentsQuery({
    _start: '0',
    _end: '500',
    _sort: 'name',
    _order: 'ASC',
  });
  const [startRun, { isLoading: starting, error: startError, reset }] = useStartRunMutation();
  const [instantiate, { isLoading: creating, error: createError, reset: resetCreate }] =
    useInstantiateTemplateMutation();
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
  const [tried, setTried] = useState(false);
  const isLoading = starting || creating;
  const error = createError ?? startError;
  const hours = Number(timeout);
  const timeoutValid = Number.isFinite(hours) && hours > 0 && hours <= 168;
  // the organisation's cap on a run's duration, when it has one: the run ends there at the latest
  const { data: organisations } = useOrganisationsQuery();
  const cap = organisations?.find((o) => o.current)?.maxRunMinutes ?? null;
  const missing = declared ? missingParams(declared, values.v) : [];

  function update(key: number, patch: Partial<ParamRow>) {
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if ((!pipeline && !templateId) || !timeoutValid || missing.length > 0) return;
    reset();
    resetCreate();
    const extra = Object.fromEntries(rows.filter((r) => r.name.trim()).map((r) => [r.name.trim(), r.value]));
    const params = { ...extra, ...(declared ? paramValuesToSend(declared, values.v) : {}) };
    try {
      let target = pipeline;
      if (templateId) {
        const name = template.data?.name ?? '';
        const existing = pipelines?.rows.find((p) => p.name === name);
        target = existing ? existing.id : (await instantiate({ id: templateId, name }).unwrap()).id;
      }
      const run = await startRun({
        pipelineId: target,
        params,
        timeoutHours: hours,
        ...(environmentId ? { environmentId } : {}),
      }).unwrap();
      onClose();
      void navigate(`/pipelines/runs/${run.id}`);
    } catch {
      // shown from `error`
    }
  }

  return (
    <Dialog
      open
      onClose={isLoading ? undefined : onClose}
      aria-labelledby={`${id}-title`}
      fullWidth
      maxWidth="sm"
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <DialogTitle id={`${id}-title`}>{t('pipelines.runDialog.title')}</DialogTitle>
        <DialogContent data-tour="run-input-panel">
          <FormAlert message={error ? errorMessage(error) : null} />
          <Stack spacing={2} sx={{ pt: 1 }}>
            <RunPrerequisites />
            {pipelineId ? null : (
              <TextField
                select
                label={t('studio.runPanel.template')}
                value={templateId}
                onChange={(e) => setTemplateId(e.target.value)}
                helperText={templateId ? t('studio.runPanel.templateHelp') : ' '}
                slotProps={{ htmlInput: { 'data-testid': 'run-template-select' } }}
              >
                <MenuItem value="">{t('studio.runPanel.noTemplate')}</MenuItem>
                {(templates?.rows ?? []).map((p) => (
                  <MenuItem key={p.id} value={p.id}>
                    {p.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            {pipelineId || templateId ? null : (
              <TextField
                select
                required
                label={t('pipelines.runDialog.pipeline')}
                value={pipelines?.rows.length ? pipeline : ''}
                onChange={(e) => setChosen(e.target.value)}
                helperText={
                  pipelines && pipelines.rows.length === 0 ? t('pipelines.runDialog.noPipelines') : ' '
                }
                slotProps={{ htmlInput: { 'data-testid': 'run-pipeline-select' } }}
              >
                {(pipelines?.rows ?? []).map((p) => (
                  <MenuItem key={p.id} value={p.id}>
                    {p.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <TextField
              select
              label={t('pipelines.runDialog.environment')}
              value={environmentId}
              onChange={(e) => setEnvironmentId(e.target.value)}
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
                showErrors={tried}
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
                  onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}
                >
                  <Delete />
                </IconButton>
              </Stack>
            ))}
            <div>
              <Button
                size="small"
                startIcon={<Add />}
                onClick={() => setRows((rs) => [...rs, { key: Date.now() + rs.length, name: '', value: '' }])}
              >
                {t('pipelines.runDialog.addParam')}
              </Button>
            </div>
            <TextField
              type="number"
              label={t('pipelines.runDialog.timeout')}
              value={timeout}
              onChange={(e) => setTimeoutHours(e.target.value)}
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
          <Button onClick={onClose} disabled={isLoading}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            data-tour="run-start"
            variant="contained"
            loading={isLoading}
            disabled={(!pipeline && !templateId) || !timeoutValid}
          >
            {t('pipelines.runDialog.start')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
