import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Schedule } from '@slipway/contracts';
import { timeColumn } from '../../ui/columns';
import type { Column } from '../../ui/DataTable';
import { MenuTable, type RowActionProps, type RowMenuItem } from '../../ui/RowMenu';
import { EnabledChip } from '../../ui/StatusChip';
import { describeFrequency } from './schedule-format';

export type ScheduleAction = 'edit' | 'toggle' | 'delete';

/**
 * Schedules as rows: frequency in words, time zone, next and last run (with a link to it), and
 * why the last due run could not start, until one starts again.
 */
export function SchedulesTable({
  schedules,
  ...actions
}: RowActionProps<Schedule, ScheduleAction> & {
  schedules: Schedule[] | undefined;
}) {
  const { t, i18n } = useTranslation();
  const when = (at: string | null) => (at ? new Date(at).toLocaleString(i18n.language) : t('schedules.none'));
  const items = (s: Schedule): RowMenuItem<ScheduleAction>[] => [
    { action: 'edit', label: t('common.edit'), disabled: !actions.allowed('edit') },
    {
      action: 'toggle',
      label: s.enabled ? t('schedules.disable') : t('schedules.enable'),
      disabled: !actions.allowed('toggle'),
    },
    { action: 'delete', label: t('common.delete'), disabled: !actions.allowed('delete'), danger: true },
  ];
  const columns: Column<Schedule>[] = [
    { id: 'name', header: t('schedules.columns.name'), cell: (s) => s.name, sortKey: 'name' },
    { id: 'pipeline', header: t('schedules.columns.pipeline'), cell: (s) => s.pipelineName },
    { id: 'frequency', header: t('schedules.columns.frequency'), cell: (s) => describeFrequency(s, t) },
    { id: 'timeZone', header: t('schedules.columns.timeZone'), cell: (s) => s.timeZone },
    timeColumn<Schedule>('nextRun', t('schedules.columns.nextRun'), (s) => s.nextRunAt, i18n.language, {
      sortKey: 'nextRunAt',
      none: t('schedules.none'),
    }),
    {
      id: 'lastRun',
      header: t('schedules.columns.lastRun'),
      sortKey: 'lastRunAt',
      cell: (s) => (
        <>
          <span style={{ whiteSpace: 'nowrap' }}>
            {s.lastRunId ? (
              <Link component={RouterLink} to={`/pipelines/runs/${s.lastRunId}`}>
                {when(s.lastRunAt)}
              </Link>
            ) : (
              when(s.lastRunAt)
            )}
          </span>
          {s.lastError ? (
            <Typography
              variant="caption"
              color="error"
              component="p"
              data-testid="schedule-last-error"
              sx={{ maxWidth: 360, overflowWrap: 'anywhere' }}
            >
              {t('schedules.lastError', { error: s.lastError })}
            </Typography>
          ) : null}
        </>
      ),
    },
    {
      id: 'status',
      header: t('schedules.columns.status'),
      cell: (s) => (
        <EnabledChip enabled={s.enabled} on={t('schedules.enabled')} off={t('schedules.disabled')} />
      ),
    },
  ];
  return (
    <MenuTable<Schedule, ScheduleAction>
      label={t('schedules.title')}
      columns={columns}
      rows={schedules}
      rowTestId="schedule-row"
      items={items}
      menuLabel={(s) => t('schedules.actionsFor', { name: s.name })}
      onAction={actions.onAction}
      states={actions.states}
    />
  );
}
