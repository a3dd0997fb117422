import Box from '@mui/material/Box';
import type { Theme } from '@mui/material/styles';
import type { Node, NodeProps } from '@xyflow/react';
import { useEffect, useState } from 'react';
import { layoutGraph, NODE_HEIGHT, NODE_WIDTH, type Positioned } from './graph-layout';
import type { RunGraph } from './run-graph';

/**
 * What the run page's canvas and the Studio's share: the layout of a graph (redone only when its
 * shape changes, so status updates never move nodes) and the frame around its `finally` tasks.
 */

/** The frame around the `finally` tasks, with its caption. */
function FinallyGroup({ data }: NodeProps) {
  return (
    <Box
      data-testid="dag-finally-group"
      sx={{ width: '100%', height: '100%', fontSize: 12, color: 'text.secondary', px: 1, pt: 0.25 }}
    >
      {String(data.label)}
    </Box>
  );
}
export const NODE_TYPES = { finallyGroup: FinallyGroup };
/** The id of the `finally` frame's node: never a task (task names are DNS labels). */
export const FINALLY_NODE = '__finally';

/** The graph laid out by elkjs, once per shape (its nodes, their `finally` flag and its edges). */
export function useGraphLayout(graph: RunGraph): { shape: string; at: Positioned } | null {
  const shape = JSON.stringify([graph.nodes.map((n) => [n.id, n.isFinally]), graph.edges.map((e) => e.id)]);
  const [laid, setLaid] = useState<{ shape: string; at: Positioned } | null>(null);
  useEffect(() => {
    let cancelled = false;
    void layoutGraph(graph).then((at) => {
      if (!cancelled) setLaid({ shape, at });
    });
    return () => {
      cancelled = true;
    };
    // the layout depends on the shape only
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape]);
  return laid;
}

/** The `finally` frame's node, or null when the graph has no `finally` tasks. */
export function finallyFrame(graph: RunGraph, at: Positioned, label: string, theme: Theme): Node | null {
  if (at.finallyX === null) return null;
  const count = graph.nodes.filter((n) => n.isFinally).length;
  return {
    id: FINALLY_NODE,
    type: 'finallyGroup',
    position: { x: at.finallyX - 16, y: -20 },
    selectable: false,
    draggable: false,
    focusable: false,
    connectable: false,
    data: { label },
    style: {
      width: NODE_WIDTH + 32,
      height: count * (NODE_HEIGHT + 24) + 36,
      border: `1px dashed ${theme.palette.divider}`,
      background: 'transparent',
      pointerEvents: 'none',
    },
  };
}
