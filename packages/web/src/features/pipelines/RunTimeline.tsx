import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDuration, STATUS_COLOR } from './format';
import type { Timeline } from './timeline';

/**
 * The timeline strip: one row per started task, its bar from start to end on the run's shared
 * time axis; the tasks of the critical path are outlined and listed.
 */
export function RunTimeline({
  timeline,
  critical,
  onSelect,
}: {
  timeline: Timeline;
  critical: string[];
  onSelect: (task: string) => void;
}) {
  const { t } = useTranslation();
  const theme = useTheme();
  if (timeline.bars.length === 0)
    return <Typography color="text.secondary">{t('studio.timelineEmpty')}</Typography>;
  const onPath = new Set(critical);
  return (
    <Box data-testid="run-timeline">
      <Box sx={{ display: 'flex', justifyContent: 'space-between', mb: 0.5 }}>
        <Typography variant="caption" color="text.secondary">
          0s
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {formatDuration(timeline.endMs - timeline.startMs)}
        </Typography>
      </Box>
      {timeline.bars.map((b) => {
        const c = STATUS_COLOR[b.status] ?? 'default';
        const colour = c === 'default' ? theme.palette.grey[500] : theme.palette[c].main;
        const label = t('studio.timelineBar', {
          task: b.task,
          start: formatDuration(b.startMs - timeline.startMs),
          end: formatDuration(b.endMs - timeline.startMs),
        });
        return (
          <Box key={b.task} sx={{ display: 'flex', alignItems: 'center', gap: 1, height: 24 }}>
            <Typography
              variant="body2"
              sx={{
                width: { xs: 112, sm: 160 },
                flex: 'none',
                overflow: 'hidden',
                textOverflow: 'ellipsis',
                whiteSpace: 'nowrap',
              }}
            >
              {b.task}
            </Typography>
            <Box
              sx={{ position: 'relative', flex: 1, height: 14, bgcolor: 'action.hover', borderRadius: 0.5 }}
            >
              <Box
                component="button"
                type="button"
                data-testid="timeline-bar"
                data-task={b.task}
                data-status={b.status}
                data-critical={onPath.has(b.task) ? 'true' : 'false'}
                aria-label={label}
                title={label}
                onClick={() => onSelect(b.task)}
                sx={{
                  position: 'absolute',
                  top: 0,
                  bottom: 0,
                  left: `${b.left * 100}%`,
                  width: `max(${b.width * 100}%, 3px)`,
                  p: 0,
                  border: onPath.has(b.task) ? `2px solid ${theme.palette.text.primary}` : 'none',
                  borderRadius: 0.5,
                  bgcolor: colour,
                  cursor: 'pointer',
                  opacity: b.running ? 0.7 : 1,
                }}
              />
            </Box>
          </Box>
        );
      })}
      {critical.length ? (
        <Typography
          data-testid="critical-path"
          variant="body2"
          color="text.secondary"
          sx={{ mt: 1, overflowWrap: 'anywhere' }}
        >
          {t('studio.criticalPath', { path: critical.join(' → ') })}
        </Typography>
      ) : null}
    </Box>
  );
}
