import MoreVert from '@mui/icons-material/MoreVert';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Schedule } from '@slipway/contracts';
import { DataTable, type Column, type TableStates } from '../../ui/DataTable';
import { describeFrequency } from './schedule-format';

export type ScheduleAction = 'edit' | 'toggle' | 'delete';

/**
 * Schedules as rows: frequency in words, time zone, next and last run (with a link to it), and
 * why the last due run could not start, until one starts again.
 */
export function SchedulesTable({
  schedules,
  states,
  allowed,
  onAction,
}: {
  schedules: Schedule[] | undefined;
  /** The list's loading, error and empty states and its pager. */
  states?: TableStates;
  allowed: (action: ScheduleAction) => boolean;
  onAction: (action: ScheduleAction, schedule: Schedule) => void;
}) {
  const { t, i18n } = useTranslation();
  const [menu, setMenu] = useState<{ anchor: HTMLElement; schedule: Schedule } | null>(null);
  const when = (at: string | null) => (at ? new Date(at).toLocaleString(i18n.language) : t('schedules.none'));
  const choose = (action: ScheduleAction) => {
    if (menu) onAction(action, menu.schedule);
    setMenu(null);
  };
  const columns: Column<Schedule>[] = [
    { id: 'name', header: t('schedules.columns.name'), cell: (s) => s.name, sortKey: 'name' },
    { id: 'pipeline', header: t('schedules.columns.pipeline'), cell: (s) => s.pipelineName },
    { id: 'frequency', header: t('schedules.columns.frequency'), cell: (s) => describeFrequency(s, t) },
    { id: 'timeZone', header: t('schedules.columns.timeZone'), cell: (s) => s.timeZone },
    {
      id: 'nextRun',
      header: t('schedules.columns.nextRun'),
      sortKey: 'nextRunAt',
      cell: (s) => when(s.nextRunAt),
      sx: { whiteSpace: 'nowrap' },
    },
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
        <Chip
          size="small"
          color={s.enabled ? 'success' : 'default'}
          label={s.enabled ? t('schedules.enabled') : t('schedules.disabled')}
        />
      ),
    },
    {
      id: 'actions',
      header: t('common.actions'),
      align: 'end',
      cell: (s) => (
        <IconButton
          aria-label={t('schedules.actionsFor', { name: s.name })}
          aria-haspopup="menu"
          onClick={(e) => setMenu({ anchor: e.currentTarget, schedule: s })}
        >
          <MoreVert />
        </IconButton>
      ),
    },
  ];
  return (
    <DataTable
      aria-label={t('schedules.title')}
      columns={columns}
      rows={schedules}
      getRowId={(s) => s.id}
      rowTestId="schedule-row"
      {...states}
    >
      <Menu anchorEl={menu?.anchor} open={Boolean(menu)} onClose={() => setMenu(null)}>
        <MenuItem disabled={!allowed('edit')} onClick={() => choose('edit')}>
          {t('common.edit')}
        </MenuItem>
        <MenuItem disabled={!allowed('toggle')} onClick={() => choose('toggle')}>
          {menu?.schedule.enabled ? t('schedules.disable') : t('schedules.enable')}
        </MenuItem>
        <MenuItem disabled={!allowed('delete')} onClick={() => choose('delete')} sx={{ color: 'error.main' }}>
          {t('common.delete')}
        </MenuItem>
      </Menu>
    </DataTable>
  );
}
