import type { IncomingMessage } from 'node:http';
import type { ZodError } from 'zod';
import { runLimitRequestSchema, type RunLimit } from '@slipway/contracts';
import type { Reply } from './peer-types';

export interface RunLimitsPeerDeps {
  fail: (status: number, message: string) => Reply;
  invalid: (error: ZodError) => Reply;
}

/**
 * Admission limits as the server answers them (`GET|PUT /api/{workspaces,pipelines}/:id/run-limit`):
 * the workspace's own limit (default 4) and each pipeline's (default 2, bound by the workspace's).
 * Pages that show a limit (Settings → Account, a pipeline's page) get real answers in every test.
 */
export function createRunLimitsPeer(deps: RunLimitsPeerDeps) {
  const limits = new Map<string, number | null>();
  const answer = (kind: string, id: string): RunLimit => {
    const workspace = limits.get('workspaces/ws-1') ?? 4;
    const own = limits.get(`${kind}/${id}`) ?? null;
    return kind === 'workspaces'
      ? { maxRunsInProgress: own, defaultLimit: 4, effective: own ?? 4 }
      : {
          maxRunsInProgress: own,
          defaultLimit: 2,
          effective: Math.min(own ?? 2, workspace),
          workspaceLimit: workspace,
        };
  };
  function route(req: IncomingMessage, path: string, body: unknown): Reply | undefined {
    const [, kind, id] = /^\/api\/(workspaces|pipelines)\/([^/]+)\/run-limit$/.exec(path) ?? [];
    if (!kind || !id) return undefined;
    if (kind === 'workspaces' && id !== 'ws-1') return deps.fail(404, 'Not found');
    if (req.method === 'PUT') {
      const parsed = runLimitRequestSchema.safeParse(body);
      if (!parsed.success) return deps.invalid(parsed.error);
      limits.set(`${kind}/${id}`, parsed.data.maxRunsInProgress);
    }
    return [200, answer(kind, id)];
  }
  return { limits, route };
}
