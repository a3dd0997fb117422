import type { IncomingMessage } from 'node:http';
import type { ZodError } from 'zod';
import {
  createPipelineRunSchema,
  pipelineCreateSchema,
  pipelineUpdateSchema,
  RUN_STATUS_FILTERS,
  type PipelineDetail,
  type PipelineRunDetail,
} from '@slipway/contracts';
import type { Reply } from './peer-types';
import { page } from './route-peer';

/**
 * The pipelines side of the test peer: `/api/pipelines` and `/api/pipelineruns` with runs and
 * their log lines kept in memory, answering in the contracts' shapes.
 */
export interface PipelinesPeerDeps {
  fail: (status: number, message: string, details?: { path: string; message: string }[]) => Reply;
  invalid: (error: ZodError) => Reply;
}

const AT = '2025-05-01T10:00:00.000Z';

export function samplePipeline(patch: Partial<PipelineDetail> = {}): PipelineDetail {
  return {
    id: 'pl-1',
    kind: 'pipeline',
    name: 'hello',
    description: '',
    version: 1,
    rollbackPipelineId: null,
    createdAt: AT,
    updatedAt: AT,
    definition: 'apiVersion: tekton.dev/v1\nkind: Pipeline\n',
    format: 'yaml',
    versions: [{ version: 1, format: 'yaml', createdBy: null, createdAt: AT }],
    ...patch,
  };
}

export function sampleRun(patch: Partial<PipelineRunDetail> = {}): PipelineRunDetail {
  return {
    id: 'run-1',
    pipelineId: 'pl-1',
    pipelineVersion: 1,
    number: 1,
    name: 'hello',
    status: 'succeeded',
    reason: null,
    message: null,
    params: {},
    results: null,
    timeoutMs: 3_600_000,
    trigger: { kind: 'manual', id: null },
    rerunOf: null,
    rollbackOf: null,
    environmentId: null,
    queuedAt: AT,
    startedAt: AT,
    finishedAt: '2025-05-01T10:00:05.000Z',
    queuePosition: null,
    taskRuns: [],
    ...patch,
  };
}

export function createPipelinesPeer(deps: PipelinesPeerDeps) {
  const pipelines = {
    pipelines: [] as PipelineDetail[],
    /** pipeline templates (`/api/templates`) */
    templates: [] as PipelineDetail[],
    runs: [] as PipelineRunDetail[],
    /** log lines per run id, as "[task/step] text" for the whole run */
    logs: new Map<string, string[]>(),
    /** when set, POST/PUT /api/pipelines refuse the definition with this message */
    refuseDefinition: null as string | null,
    /** what GET /api/pipelineruns/:id/export answers, per run id (404 for the others) */
    exports: new Map<string, object>(),
    /** when set, POST /api/pipelineruns refuses a run document (YAML text) with this 400 */
    refuseDocument: null as { message: string; details: { path: string; message: string }[] } | null,
  };
  let seq = 0;

  const summary = ({ definition: _d, format: _f, versions: _v, ...p }: PipelineDetail) => p;
  const view = ({ taskRuns: _t, ...r }: PipelineRunDetail) => r;

  function route(
    req: IncomingMessage,
    path: string,
    query: URLSearchParams,
    body: unknown,
  ): Reply | undefined {
    const key = `${req.method} ${path}`;
    const parts = path.split('/'); // ['', 'api', 'pipelineruns', id, action]
    const id = parts[3] ?? '';
    if (key === 'GET /api/pipelines') return page(pipelines.pipelines.map(summary), query);
    if (key === 'POST /api/pipelines') {
      const p = pipelineCreateSchema.safeParse(body);
      if (!p.success) return deps.invalid(p.error);
      if (pipelines.refuseDefinition) return deps.fail(400, pipelines.refuseDefinition);
      const created = samplePipeline({
        id: `pl-new-${++seq}`,
        name: p.data.name,
        definition: p.data.definition,
      });
      pipelines.pipelines.push(created);
      return [201, created];
    }
    if (parts[2] === 'templates') {
      const list = pipelines.templates;
      if (key === 'GET /api/templates') return page(list.map(summary), query);
      if (key === 'POST /api/templates') {
        const p = pipelineCreateSchema.safeParse(body);
        if (!p.success) return deps.invalid(p.error);
        if (pipelines.refuseDefinition) return deps.fail(400, pipelines.refuseDefinition);
        const created = samplePipeline({
          id: `tpl-new-${++seq}`,
          kind: 'template',
          name: p.data.name,
          description: p.data.description ?? '',
          definition: p.data.definition,
        });
        list.push(created);
        return [201, created];
      }
      const found = list.find((p) => p.id === id);
      if (!found) return deps.fail(404, 'Pipeline template not found');
      if (req.method === 'GET' && parts.length === 4) return [200, found];
      if (req.method === 'PUT' && parts.length === 4) {
        const p = pipelineUpdateSchema.safeParse(body);
        if (!p.success) return deps.invalid(p.error);
        if (pipelines.refuseDefinition) return deps.fail(400, pipelines.refuseDefinition);
        Object.assign(found, p.data, p.data.definition ? { version: found.version + 1 } : {});
        return [200, found];
      }
      if (req.method === 'DELETE' && parts.length === 4) {
        list.splice(list.indexOf(found), 1);
        return [204];
      }
      if (req.method === 'POST' && parts[4] === 'instantiate') {
        const name = (body as { name?: string } | null)?.name ?? '';
        if (pipelines.pipelines.some((p) => p.name === name))
          return deps.fail(409, 'A pipeline has this name');
        const created = samplePipeline({ id: `pl-new-${++seq}`, name, definition: found.definition });
        pipelines.pipelines.push(created);
        return [201, created];
      }
    }
    if (parts[2] === 'pipelines' && parts[4] === 'versions' && req.method === 'GET') {
      const found = pipelines.pipelines.find((p) => p.id === id);
      if (!found) return deps.fail(404, 'Pipeline not found');
      return [200, { ...found.versions[0]!, version: Number(parts[5]), definition: found.definition }];
    }
    if (parts[2] === 'pipelines' && parts.length === 4) {
      const found = pipelines.pipelines.find((p) => p.id === id);
      if (!found) return deps.fail(404, 'Pipeline not found');
      if (req.method === 'GET') return [200, found];
      if (req.method === 'PUT') {
        const p = pipelineUpdateSchema.safeParse(body);
        if (!p.success) return deps.invalid(p.error);
        if (pipelines.refuseDefinition) return deps.fail(400, pipelines.refuseDefinition);
        Object.assign(found, p.data);
        return [200, found];
      }
      if (req.method === 'DELETE') {
        // as the server does: refused while a run of it is pending or in progress
        if (pipelines.runs.some((r) => r.pipelineId === id && ['pending', 'in_progress'].includes(r.status)))
          return deps.fail(
            409,
            'This pipeline has a run pending or in progress: abort it or wait for it to end',
          );
        pipelines.pipelines.splice(pipelines.pipelines.indexOf(found), 1);
        return [204];
      }
    }
    if (key === 'GET /api/pipelineruns') {
      const status = query.get('status');
      const wanted = status ? RUN_STATUS_FILTERS[status] : undefined;
      const from = query.get('from');
      const to = query.get('to');
      const rows = pipelines.runs.filter(
        (r) =>
          (!wanted || r.status === wanted) &&
          (!from || Date.parse(r.queuedAt) >= Date.parse(from)) &&
          (!to || Date.parse(r.queuedAt) < Date.parse(to)),
      );
      return page(rows.map(view), query);
    }
    if (key === 'POST /api/pipelineruns' && typeof body === 'string') {
      // a Tekton run document: named by its metadata.name (or generateName and a suffix)
      if (pipelines.refuseDocument)
        return deps.fail(400, pipelines.refuseDocument.message, pipelines.refuseDocument.details);
      const name =
        /^\s+name:\s*(\S+)/m.exec(body)?.[1] ?? `${/generateName:\s*(\S+)/.exec(body)?.[1] ?? 'run-'}x2b4z`;
      const kind = /^kind:\s*TaskRun/m.test(body) ? ('TaskRun' as const) : ('PipelineRun' as const);
      const run = sampleRun({
        id: `run-new-${++seq}`,
        pipelineId: `adhoc-${seq}`,
        name,
        status: 'pending',
        trigger: { kind: 'user', id: null, document: { kind } },
        startedAt: null,
        finishedAt: null,
        queuePosition: 1,
      });
      pipelines.runs.unshift(run);
      return [201, view(run)];
    }
    if (key === 'POST /api/pipelineruns') {
      const p = createPipelineRunSchema.safeParse(body);
      if (!p.success) return deps.invalid(p.error);
      const run = sampleRun({
        id: `run-new-${++seq}`,
        pipelineId: p.data.pipelineId,
        number: pipelines.runs.length + 1,
        status: 'pending',
        params: p.data.params,
        environmentId: p.data.environmentId ?? null,
        timeoutMs: p.data.timeoutHours * 3_600_000,
        startedAt: null,
        finishedAt: null,
        queuePosition: 1,
      });
      pipelines.runs.unshift(run);
      return [201, view(run)];
    }
    if (parts[2] === 'pipelineruns' && id) {
      const run = pipelines.runs.find((r) => r.id === id);
      if (!run) return deps.fail(404, 'Pipeline run not found');
      const action = parts[4];
      if (req.method === 'GET' && !action) return [200, run];
      if (req.method === 'GET' && action === 'export') {
        const exported = pipelines.exports.get(id);
        return exported ? [200, exported] : deps.fail(404, 'Pipeline run not found');
      }
      if (req.method === 'GET' && action === 'logs') {
        const offset = Number(query.get('offset') ?? 0);
        const task = query.get('task');
        const lines = (pipelines.logs.get(id) ?? [])
          .filter((l) => !task || l.startsWith(`[${task}/`))
          .slice(offset);
        const text = lines.length ? `${lines.join('\n')}\n` : '';
        return [
          200,
          text,
          { 'content-type': 'text/plain; charset=utf-8', 'x-next-offset': String(offset + lines.length) },
        ];
      }
      if (req.method === 'POST' && action === 'abort') {
        run.status = 'cancelled';
        run.finishedAt = new Date().toISOString();
        return [200, view(run)];
      }
      if (req.method === 'POST' && (action === 'rerun' || action === 'rollback')) {
        const again = sampleRun({ ...run, id: `run-new-${++seq}`, status: 'pending', taskRuns: [] });
        pipelines.runs.unshift(again);
        return [201, view(again)];
      }
    }
    return undefined;
  }

  return { pipelines, route };
}
