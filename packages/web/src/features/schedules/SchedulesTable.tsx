import MoreVert from '@mui/icons-material/MoreVert';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Schedule } from '@slipway/contracts';
import { describeFrequency } from './schedule-format';

export type ScheduleAction = 'edit' | 'toggle' | 'delete';

/**
 * Schedules as rows: frequency in words, time zone, next and last run (with a link to it), and
 * why the last due run could not start, until one starts again.
 */
export function SchedulesTable({
  schedules,
  allowed,
  onAction,
}: {
  schedules: Schedule[];
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
  return (
    <TableContainer>
      <Table size="small" aria-label={t('schedules.title')}>
        <TableHead>
          <TableRow>
            {(['name', 'pipeline', 'frequency', 'timeZone', 'nextRun', 'lastRun', 'status'] as const).map(
              (c) => (
                <TableCell key={c}>{t(`schedules.columns.${c}`)}</TableCell>
              ),
            )}
            <TableCell align="right">{t('common.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {schedules.map((s) => (
            <TableRow key={s.id} data-testid="schedule-row">
              <TableCell>{s.name}</TableCell>
              <TableCell>{s.pipelineName}</TableCell>
              <TableCell>{describeFrequency(s, t)}</TableCell>
              <TableCell>{s.timeZone}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(s.nextRunAt)}</TableCell>
              <TableCell>
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
              </TableCell>
              <TableCell>
                <Chip
                  size="small"
                  color={s.enabled ? 'success' : 'default'}
                  label={s.enabled ? t('schedules.enabled') : t('schedules.disabled')}
                />
              </TableCell>
              <TableCell align="right">
                <IconButton
                  aria-label={t('schedules.actionsFor', { name: s.name })}
                  aria-haspopup="menu"
                  onClick={(e) => setMenu({ anchor: e.currentTarget, schedule: s })}
                >
                  <MoreVert />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
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
    </TableContainer>
  );
}
