import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { PipelineRunDetail } from '@slipway/contracts';
import { pipelineSpecOf } from './definition-parse';
import { buildRunGraph } from './run-graph';
import RunGraphCanvas from './RunGraphCanvas';
import { RunTimeline } from './RunTimeline';
import { criticalPath, timelineOf } from './timeline';

/**
 * The studio's canvas for one run (a chunk of its own, with @xyflow/react, elkjs and the YAML
 * grammar): the DAG from the definition the run used, then the timeline strip.
 */
export default function RunCanvas({
  run,
  definition,
  selected,
  onSelect,
}: {
  run: PipelineRunDetail;
  /** the definition of the pipeline version the run used; null when it could not be read */
  definition: string | null;
  selected: string;
  onSelect: (task: string) => void;
}) {
  const { t } = useTranslation();
  const spec = useMemo(() => (definition === null ? null : pipelineSpecOf(definition)), [definition]);
  const graph = useMemo(() => buildRunGraph(spec, run.taskRuns), [spec, run.taskRuns]);
  const timeline = timelineOf(run.taskRuns, Date.now());
  const critical = criticalPath(timeline, graph.edges);
  return (
    <Box>
      {graph.nodes.length === 0 ? (
        <Typography color="text.secondary">{t('pipelines.run.noTasks')}</Typography>
      ) : (
        <RunGraphCanvas graph={graph} selected={selected} onSelect={onSelect} />
      )}
      {spec === null && definition !== null ? (
        <Typography variant="caption" color="text.secondary">
          {t('studio.definitionUnreadable')}
        </Typography>
      ) : null}
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2, mb: 1 }}>
        {t('studio.timeline')}
      </Typography>
      <RunTimeline timeline={timeline} critical={critical} onSelect={onSelect} />
    </Box>
  );
}
