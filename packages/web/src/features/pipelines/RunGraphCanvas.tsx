import '@xyflow/react/dist/style.css';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { Background, Controls, MarkerType, Position, ReactFlow, type Edge, type Node } from '@xyflow/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { finallyFrame, FINALLY_NODE, NODE_TYPES, useGraphLayout } from './dag-pieces';
import { NODE_HEIGHT, NODE_WIDTH } from './graph-layout';
import type { RunGraph } from './run-graph';
import { STATUS_COLOR } from './format';

/**
 * The studio canvas (loaded on demand): the run's tasks as a DAG laid out by elkjs and drawn
 * with @xyflow/react, each node coloured by its live status; clicking a node selects the task.
 * Layout only changes when the graph's shape does, so status updates never move nodes.
 */
export default function RunGraphCanvas({
  graph,
  selected,
  onSelect,
}: {
  graph: RunGraph;
  selected: string;
  onSelect: (task: string) => void;
}) {
  const { t } = useTranslation();
  const theme = useTheme();
  const laid = useGraphLayout(graph);

  const colourOf = (status: string) => {
    const c = STATUS_COLOR[status] ?? 'default';
    return c === 'default' ? theme.palette.grey[500] : theme.palette[c].main;
  };

  const nodes = useMemo<Node[]>(() => {
    if (!laid) return [];
    const out: Node[] = graph.nodes.map((n) => {
      const colour = colourOf(n.status);
      return {
        id: n.id,
        position: laid.at.positions[n.id] ?? { x: 0, y: 0 },
        sourcePosition: Position.Right,
        targetPosition: Position.Left,
        selected: n.id === selected,
        draggable: false,
        connectable: false,
        ariaLabel: `${n.id}: ${t(`pipelines.status.${n.status}`, { defaultValue: n.status })}`,
        data: {
          label: (
            <Box
              data-testid="dag-node"
              data-task={n.id}
              data-status={n.status}
              sx={{ display: 'flex', alignItems: 'center', gap: 1, overflow: 'hidden' }}
            >
              <Box
                component="span"
                sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: colour, flex: 'none' }}
              />
              <Box
                component="span"
                sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
              >
                {n.id}
              </Box>
            </Box>
          ),
        },
        style: {
          width: NODE_WIDTH,
          height: NODE_HEIGHT,
          border: `2px solid ${colour}`,
          background: theme.palette.background.paper,
          color: theme.palette.text.primary,
          boxShadow: n.id === selected ? `0 0 0 3px ${theme.palette.primary.light}` : undefined,
          fontSize: 13,
          display: 'flex',
          alignItems: 'center',
        },
      };
    });
    const frame = finallyFrame(graph, laid.at, t('studio.finallyGroup'), theme);
    if (frame) out.unshift(frame);
    return out;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [laid, graph, selected, theme, t]);

  const edges = useMemo<Edge[]>(
    () =>
      graph.edges.map((e) => ({
        id: e.id,
        source: e.source,
        target: e.target,
        animated: graph.nodes.find((n) => n.id === e.target)?.status === 'running',
        markerEnd: { type: MarkerType.ArrowClosed },
        style: e.kind === 'result' ? { strokeDasharray: '5 4' } : undefined,
      })),
    [graph],
  );

  return (
    <Box
      data-testid="run-dag"
      data-laid-out={laid ? 'true' : 'false'}
      data-edges={graph.edges.map((e) => `${e.id}:${e.kind}`).join(' ')}
      sx={{ height: 320, border: 1, borderColor: 'divider', borderRadius: 1, position: 'relative' }}
    >
      {laid ? (
        <ReactFlow
          nodeTypes={NODE_TYPES}
          nodes={nodes}
          edges={edges}
          fitView
          minZoom={0.3}
          nodesDraggable={false}
          nodesConnectable={false}
          onNodeClick={(_e, node) => {
            if (node.id !== FINALLY_NODE) onSelect(node.id);
          }}
          proOptions={{ hideAttribution: true }}
        >
          <Background />
          <Controls showInteractive={false} />
        </ReactFlow>
      ) : null}
    </Box>
  );
}
