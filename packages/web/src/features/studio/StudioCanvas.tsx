import '@xyflow/react/dist/style.css';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import {
  Background,
  Controls,
  MarkerType,
  Position,
  ReactFlow,
  type Edge,
  type Node,
  type NodeChange,
} from '@xyflow/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { finallyFrame, FINALLY_NODE, NODE_TYPES, useGraphLayout } from '../pipelines/dag-pieces';
import { NODE_HEIGHT, NODE_WIDTH } from '../pipelines/graph-layout';
import type { RunGraph } from '../pipelines/run-graph';
import type { TaskInfo } from './pipeline-read';

/**
 * The pipeline being edited as a DAG (laid out as the run page lays runs out): runAfter edges
 * solid, result references dashed. A node selects its task (click, or Enter on a focused node);
 * dragging from a node's right handle to another's left one makes the second run after the
 * first. The canvas pans and zooms inside its box, and stays left to right in any language.
 */
export default function StudioCanvas({
  graph,
  tasks,
  selected,
  editable,
  onSelect,
  onConnect,
}: {
  graph: RunGraph;
  tasks: readonly TaskInfo[];
  selected: string | null;
  editable: boolean;
  onSelect: (task: string) => void;
  onConnect: (from: string, to: string) => void;
}) {
  const { t } = useTranslation();
  const theme = useTheme();
  const laid = useGraphLayout(graph);

  const nodes = useMemo<Node[]>(() => {
    if (!laid) return [];
    const refOf = new Map(tasks.map((task) => [task.name, task.taskRef]));
    const out: Node[] = graph.nodes.map((n) => {
      const ref = refOf.get(n.id) ?? null;
      const isSelected = n.id === selected;
      return {
        id: n.id,
        position: laid.at.positions[n.id] ?? { x: 0, y: 0 },
        sourcePosition: Position.Right,
        targetPosition: Position.Left,
        selected: isSelected,
        draggable: false,
        connectable: editable && !n.isFinally,
        ariaLabel: ref
          ? t('studioPage.canvas.nodeRef', { name: n.id, ref })
          : t('studioPage.canvas.node', { name: n.id }),
        data: {
          label: (
            <Box
              data-testid="studio-node"
              data-task={n.id}
              sx={{ display: 'grid', overflow: 'hidden', textAlign: 'start', lineHeight: 1.2 }}
            >
              <Box
                component="span"
                sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
              >
                {n.id}
              </Box>
              <Box
                component="span"
                sx={{
                  fontSize: 11,
                  color: 'text.secondary',
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                  whiteSpace: 'nowrap',
                }}
              >
                {ref ?? t('studioPage.canvas.inline')}
              </Box>
            </Box>
          ),
        },
        style: {
          width: NODE_WIDTH,
          height: NODE_HEIGHT,
          border: `2px solid ${isSelected ? theme.palette.primary.main : theme.palette.grey[500]}`,
          background: theme.palette.background.paper,
          color: theme.palette.text.primary,
          boxShadow: isSelected ? `0 0 0 3px ${theme.palette.primary.light}` : undefined,
          fontSize: 13,
          padding: '4px 10px',
          display: 'flex',
          alignItems: 'center',
        },
      };
    });
    const frame = finallyFrame(graph, laid.at, t('studio.finallyGroup'), theme);
    if (frame) out.unshift(frame);
    return out;
  }, [laid, graph, tasks, selected, editable, theme, t]);

  const edges = useMemo<Edge[]>(
    () =>
      graph.edges.map((e) => ({
        id: e.id,
        source: e.source,
        target: e.target,
        markerEnd: { type: MarkerType.ArrowClosed },
        ariaLabel: t(
          e.kind === 'result' ? 'studioPage.canvas.resultEdge' : 'studioPage.canvas.runAfterEdge',
          {
            from: e.source,
            to: e.target,
          },
        ),
        style: e.kind === 'result' ? { strokeDasharray: '5 4' } : undefined,
      })),
    [graph, t],
  );

  const select = (changes: NodeChange[]) => {
    for (const c of changes) if (c.type === 'select' && c.selected && c.id !== FINALLY_NODE) onSelect(c.id);
  };

  return (
    <Box
      dir="ltr"
      data-testid="studio-dag"
      data-laid-out={laid ? 'true' : 'false'}
      data-edges={graph.edges.map((e) => `${e.id}:${e.kind}`).join(' ')}
      sx={{
        height: { xs: 340, md: 440 },
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        position: 'relative',
        overflow: 'hidden',
      }}
    >
      {laid ? (
        <ReactFlow
          // a new shape is fitted into the box afresh, so an added task is in view
          key={laid.shape}
          nodeTypes={NODE_TYPES}
          nodes={nodes}
          edges={edges}
          fitView
          // labels stay legible: a wide graph is panned (or zoomed out with the controls)
          fitViewOptions={{ minZoom: 0.6, maxZoom: 1 }}
          minZoom={0.3}
          nodesDraggable={false}
          nodesConnectable={editable}
          deleteKeyCode={null}
          onNodesChange={select}
          onNodeClick={(_e, node) => {
            if (node.id !== FINALLY_NODE) onSelect(node.id);
          }}
          isValidConnection={(c) => c.source !== c.target}
          onConnect={(c) => {
            if (c.source && c.target) onConnect(c.source, c.target);
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
