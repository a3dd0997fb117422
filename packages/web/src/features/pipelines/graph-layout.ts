import ElkApi, { type ELK } from 'elkjs/lib/elk-api.js';
import elkWorkerUrl from 'elkjs/lib/elk-worker.min.js?url';
import type { RunGraph } from './run-graph';

/** Node size on the canvas, in pixels. */
export const NODE_WIDTH = 180;
export const NODE_HEIGHT = 44;
const FINALLY_GAP = 80;

export interface Positioned {
  positions: Record<string, { x: number; y: number }>;
  /** where the finally tasks' column starts (null when there are none) */
  finallyX: number | null;
}

let elk: Promise<ELK> | undefined;

/**
 * elkjs's layout engine runs in a Web Worker of its own (its 1.4 MB script is fetched only by
 * the worker, off the page's main thread); without Worker (jsdom) it runs in the page.
 */
function layoutEngine(): Promise<ELK> {
  elk ??=
    typeof Worker === 'undefined'
      ? import('elkjs/lib/elk.bundled.js').then((m) => new m.default())
      : Promise.resolve(new ElkApi({ workerUrl: elkWorkerUrl }));
  return elk;
}

/**
 * Lays the graph out left to right with elkjs's layered algorithm; the `finally` tasks go in a
 * column of their own to the right of everything else, as they run after all of it.
 */
export async function layoutGraph(graph: RunGraph): Promise<Positioned> {
  const main = graph.nodes.filter((n) => !n.isFinally);
  const ids = new Set(main.map((n) => n.id));
  const laid = await (
    await layoutEngine()
  ).layout({
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.spacing.nodeNode': '24',
      'elk.layered.spacing.nodeNodeBetweenLayers': '56',
    },
    children: main.map((n) => ({ id: n.id, width: NODE_WIDTH, height: NODE_HEIGHT })),
    edges: graph.edges
      .filter((e) => ids.has(e.source) && ids.has(e.target))
      .map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  });
  const positions: Positioned['positions'] = {};
  let right = 0;
  for (const c of laid.children ?? []) {
    positions[c.id] = { x: c.x ?? 0, y: c.y ?? 0 };
    right = Math.max(right, (c.x ?? 0) + NODE_WIDTH);
  }
  const finallyNodes = graph.nodes.filter((n) => n.isFinally);
  const finallyX = finallyNodes.length ? right + FINALLY_GAP : null;
  finallyNodes.forEach((n, i) => {
    positions[n.id] = { x: finallyX!, y: 12 + i * (NODE_HEIGHT + 24) };
  });
  return { positions, finallyX };
}
