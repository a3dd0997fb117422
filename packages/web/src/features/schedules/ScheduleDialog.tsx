import Delete from '@mui/icons-material/Delete';
import Add from '@mui/icons-material/Add';
import Autocomplete from '@mui/material/Autocomplete';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS,
  SCHEDULE_FREQUENCIES,
  scheduleCreateSchema,
  scheduleUpdateSchema,
  type Schedule,
  type ScheduleFrequency,
} from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { FormDialog } from '../../ui/FormDialog';
import { useFormFields } from '../../ui/useFormFields';
import { usePipelinesQuery } from '../pipelines/api';
import { useCreateScheduleMutation, useUpdateScheduleMutation } from './api';
import { browserTimeZone, timeZoneOptions } from './schedule-format';
import { selectOptions } from '../../ui/select-options';

interface Values {
  name: string;
  pipelineId: string;
  frequency: ScheduleFrequency;
  minute: string;
  time: string;
  dayOfWeek: string;
  cron: string;
  timeZone: string;
  timeoutHours: string;
  enabled: boolean;
  params: ParamRow[];
}
interface ParamRow {
  key: number;
  name: string;
  value: string;
}

function initial(s?: Schedule): Values {
  return {
    name: s?.name ?? '',
    pipelineId: s?.pipelineId ?? '',
    frequency: s?.frequency ?? 'daily',
    minute: s?.minute != null ? String(s.minute) : '0',
    time: s?.time ?? '02:00',
    dayOfWeek: String(s?.dayOfWeek ?? 1),
    cron: s?.cron ?? '',
    timeZone: s?.timeZone ?? browserTimeZone(),
    timeoutHours: String(s?.timeoutHours ?? PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS),
    enabled: s?.enabled ?? true,
    params: Object.entries(s?.params ?? {}).map(([name, value], key) => ({
      key,
      name,
      value: typeof value === 'string' ? value : JSON.stringify(value),
    })),
  };
}

const numberOrUndefined = (v: string) => (v.trim() === '' ? undefined : Number(v));

/**
 * Creates or edits a schedule: name, pipeline, frequency (hourly at a minute, daily at a time,
 * weekly at a day and time, or a cron expression), time zone, timeout, params and enabled.
 */
export function ScheduleDialog({ schedule, onClose }: { schedule?: Schedule; onClose: () => void }) {
  const { t } = useTranslation();
  const zones = useMemo(timeZoneOptions, []);
  const { data: pipelines, isLoading: loadingPipelines } = usePipelinesQuery({ _start: '0', _end: '500' });
  const [create] = useCreateScheduleMutation();
  const [update] = useUpdateScheduleMutation();
  const form = useFormFields(initial(schedule), { idPrefix: 'schedule' });
  const { values, errors } = form;
  const rows = values.params;
  const setRows = (next: ParamRow[]) => form.setValue('params', next);

  const f = values.frequency;
  const submit = form.handleSubmit({
    schema: schedule ? scheduleUpdateSchema : scheduleCreateSchema,
    input: {
      name: values.name,
      pipelineId: values.pipelineId || undefined,
      frequency: f,
      minute: f === 'hourly' ? numberOrUndefined(values.minute) : null,
      time: f === 'daily' || f === 'weekly' ? values.time || undefined : null,
      dayOfWeek: f === 'weekly' ? Number(values.dayOfWeek) : null,
      cron: f === 'cron' ? values.cron || undefined : null,
      timeZone: values.timeZone,
      timeoutHours: numberOrUndefined(values.timeoutHours),
      enabled: values.enabled,
      params: Object.fromEntries(rows.filter((r) => r.name.trim()).map((r) => [r.name.trim(), r.value])),
    },
    check: () => ({ pipelineId: values.pipelineId ? undefined : t('schedules.form.pipelineRequired') }),
    mutate: (body) =>
      schedule ? update({ id: schedule.id, body }) : create(body as Parameters<typeof create>[0]),
    onSuccess: () => onClose(),
  });

  const noPipelines = !loadingPipelines && pipelines?.rows.length === 0;
  const field = (name: Exclude<keyof Values, 'enabled' | 'params'>) => ({
    ...form.field(name),
    fullWidth: true,
  });

  return (
    <FormDialog
      id="schedule-dialog"
      title={
        schedule ? t('schedules.form.editTitle', { name: schedule.name }) : t('schedules.form.createTitle')
      }
      error={form.formError}
      lead={noPipelines ? <FormAlert severity="info" message={t('schedules.form.noPipelines')} /> : null}
      submitLabel={schedule ? t('common.save') : t('schedules.form.create')}
      busy={form.submitting}
      submitDisabled={noPipelines}
      onSubmit={submit}
      onClose={onClose}
      formRef={form.formRef}
    >
      <TextField
        {...field('name')}
        label={t('schedules.form.name')}
        helperText={errors.name ?? t('schedules.form.nameHelp')}
        autoFocus
      />
      <TextField {...field('pipelineId')} select label={t('schedules.form.pipeline')}>
        {selectOptions(pipelines?.rows, (p) => [p.id, p.name])}
      </TextField>
      <TextField
        {...field('frequency')}
        select
        label={t('schedules.form.frequency')}
        onChange={(e) => form.setValue('frequency', e.target.value as ScheduleFrequency)}
      >
        {selectOptions(SCHEDULE_FREQUENCIES, (f) => [f, t(`schedules.frequencies.${f}`)])}
      </TextField>
      {values.frequency === 'hourly' ? (
        <TextField
          {...field('minute')}
          type="number"
          label={t('schedules.form.minute')}
          slotProps={{ htmlInput: { min: 0, max: 59, step: 1 } }}
        />
      ) : null}
      {values.frequency === 'weekly' ? (
        <TextField {...field('dayOfWeek')} select label={t('schedules.form.day')}>
          {selectOptions([0, 1, 2, 3, 4, 5, 6], (d) => [String(d), t(`schedules.days.d${d}`)])}
        </TextField>
      ) : null}
      {values.frequency === 'daily' || values.frequency === 'weekly' ? (
        <TextField
          {...field('time')}
          type="time"
          label={t('schedules.form.time')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      ) : null}
      {values.frequency === 'cron' ? (
        <TextField
          {...field('cron')}
          label={t('schedules.form.cron')}
          helperText={errors.cron ?? t('schedules.form.cronHelp')}
          slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
        />
      ) : null}
      <Autocomplete
        options={zones}
        value={values.timeZone}
        disableClearable
        autoHighlight
        onChange={(_e, zone) => form.setValue('timeZone', zone)}
        renderInput={(params) => (
          <TextField
            {...params}
            id="schedule-timeZone"
            label={t('schedules.form.timeZone')}
            error={Boolean(errors.timeZone)}
            helperText={errors.timeZone}
          />
        )}
      />
      <TextField
        {...field('timeoutHours')}
        type="number"
        label={t('schedules.form.timeout')}
        slotProps={{ htmlInput: { min: 0.1, max: 168, step: 'any' } }}
      />
      <Stack spacing={1}>
        <Typography variant="subtitle2">{t('schedules.form.params')}</Typography>
        {rows.map((row, i) => (
          <Stack
            key={row.key}
            direction="row"
            spacing={1}
            alignItems="flex-start"
            data-testid="schedule-param-row"
          >
            <TextField
              size="small"
              label={t('schedules.form.paramName')}
              value={row.name}
              error={Boolean(errors.params) && i === 0}
              onChange={(e) =>
                setRows(rows.map((r) => (r.key === row.key ? { ...r, name: e.target.value } : r)))
              }
            />
            <TextField
              size="small"
              label={t('schedules.form.paramValue')}
              value={row.value}
              sx={{ flex: 1 }}
              onChange={(e) =>
                setRows(rows.map((r) => (r.key === row.key ? { ...r, value: e.target.value } : r)))
              }
            />
            <IconButton
              aria-label={t('schedules.form.removeParam')}
              onClick={() => setRows(rows.filter((r) => r.key !== row.key))}
            >
              <Delete />
            </IconButton>
          </Stack>
        ))}
        {errors.params ? <FormAlert message={errors.params} /> : null}
        <div>
          <Button
            size="small"
            startIcon={<Add />}
            onClick={() =>
              setRows([...rows, { key: Math.max(-1, ...rows.map((r) => r.key)) + 1, name: '', value: '' }])
            }
          >
            {t('schedules.form.addParam')}
          </Button>
        </div>
      </Stack>
      <FormControlLabel
        control={
          <Switch checked={values.enabled} onChange={(e) => form.setValue('enabled', e.target.checked)} />
        }
        label={t('schedules.form.enabled')}
      />
    </FormDialog>
  );
}
