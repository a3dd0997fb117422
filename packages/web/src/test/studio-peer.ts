import type { IncomingMessage } from 'node:http';
import type { ZodError } from 'zod';
import {
  secretCreateSchema,
  secretUpdateSchema,
  taskTemplateCreateSchema,
  taskTemplateUpdateSchema,
  TOTAL_COUNT_HEADER,
  variableCreateSchema,
  variableUpdateSchema,
  type Secret,
  type TaskTemplate,
  type Variable,
} from '@slipway/contracts';
import type { Reply } from './peer-types';
import { page } from './route-peer';

/**
 * The studio's catalogue side of the test peer: task templates (`/api/tasks`, built-ins
 * read-only), secrets (`/api/secrets`, values kept but never answered) and variables
 * (`/api/variables`), in memory, answering in the contracts' shapes.
 */
export interface StudioPeerDeps {
  fail: (status: number, message: string, details?: { path: string; message: string }[]) => Reply;
  invalid: (error: ZodError) => Reply;
}

const AT = '2025-05-01T10:00:00.000Z';

export function sampleTaskTemplate(patch: Partial<TaskTemplate> = {}): TaskTemplate {
  return {
    id: 'task-1',
    name: 'git-clone',
    description: 'Clones a repository',
    version: 1,
    builtIn: true,
    definition: 'apiVersion: tekton.dev/v1\nkind: Task\nmetadata:\n  name: git-clone\n',
    format: 'yaml',
    createdAt: AT,
    updatedAt: AT,
    ...patch,
  };
}

export function createStudioPeer(deps: StudioPeerDeps) {
  const studio = {
    tasks: [] as TaskTemplate[],
    secrets: [] as Secret[],
    /** what was sent for each secret: the peer keeps values, the API never shows them */
    secretValues: new Map<string, Record<string, string>>(),
    variables: [] as Variable[],
    /** when set, POST/PUT /api/tasks refuse the definition with this message and details */
    refuseTask: null as { message: string; details: { path: string; message: string }[] } | null,
  };
  let seq = 0;
  const now = () => new Date().toISOString();

  function route(
    req: IncomingMessage,
    path: string,
    query: URLSearchParams,
    body: unknown,
  ): Reply | undefined {
    const parts = path.split('/'); // ['', 'api', area, id]
    const area = parts[2];
    const id = parts[3];
    const method = req.method ?? 'GET';
    if (area === 'tasks') {
      if (!id && method === 'GET') return [200, studio.tasks];
      if (!id && method === 'POST') {
        const p = taskTemplateCreateSchema.safeParse(body);
        if (!p.success) return deps.invalid(p.error);
        if (studio.refuseTask) return deps.fail(400, studio.refuseTask.message, studio.refuseTask.details);
        const task = sampleTaskTemplate({
          id: `task-new-${++seq}`,
          name: p.data.name ?? 'task',
          description: p.data.description ?? '',
          definition: p.data.definition,
          builtIn: false,
        });
        studio.tasks.push(task);
        return [201, task];
      }
      const task = studio.tasks.find((x) => x.id === id);
      if (!task) return deps.fail(404, 'Task template not found');
      if (task.builtIn && method !== 'GET') return deps.fail(409, 'Built-in task templates are read-only');
      if (method === 'PUT') {
        const p = taskTemplateUpdateSchema.safeParse(body);
        if (!p.success) return deps.invalid(p.error);
        if (studio.refuseTask) return deps.fail(400, studio.refuseTask.message, studio.refuseTask.details);
        Object.assign(task, p.data, { version: task.version + 1, updatedAt: now() });
        return [200, task];
      }
      if (method === 'DELETE') {
        studio.tasks.splice(studio.tasks.indexOf(task), 1);
        return [204];
      }
      return [200, task];
    }
    if (area === 'secrets') {
      if (!id && method === 'GET') return page(studio.secrets, query);
      if (!id && method === 'POST') {
        const p = secretCreateSchema.safeParse(body);
        if (!p.success) return deps.invalid(p.error);
        if (studio.secrets.some((s) => s.name === p.data.name))
          return deps.fail(409, 'A secret has this name');
        const values = p.data.values ?? { value: p.data.value ?? '' };
        const secret: Secret = {
          id: `secret-${++seq}`,
          name: p.data.name,
          description: p.data.description ?? '',
          type: p.data.type ?? 'generic',
          global: p.data.global ?? false,
          keys: Object.keys(values).sort(),
          createdAt: now(),
          updatedAt: now(),
        };
        studio.secrets.push(secret);
        studio.secretValues.set(secret.id, values);
        return [201, secret];
      }
      const secret = studio.secrets.find((s) => s.id === id);
      if (!secret) return deps.fail(404, 'Secret not found');
      if (method === 'PUT') {
        const p = secretUpdateSchema.safeParse(body);
        if (!p.success) return deps.invalid(p.error);
        const { values, value: _v, ...rest } = p.data;
        const kept = { ...studio.secretValues.get(secret.id) };
        for (const [k, v] of Object.entries(values ?? {})) {
          if (v === null) delete kept[k];
          else kept[k] = v;
        }
        studio.secretValues.set(secret.id, kept);
        Object.assign(secret, rest, { keys: Object.keys(kept).sort(), updatedAt: now() });
        return [200, secret];
      }
      if (method === 'DELETE') {
        studio.secrets.splice(studio.secrets.indexOf(secret), 1);
        return [204];
      }
      return [200, secret];
    }
    if (area === 'variables') {
      if (!id && method === 'GET')
        return [200, studio.variables, { [TOTAL_COUNT_HEADER]: String(studio.variables.length) }];
      if (!id && method === 'POST') {
        const p = variableCreateSchema.safeParse(body);
        if (!p.success) return deps.invalid(p.error);
        const v: Variable = {
          id: `var-${++seq}`,
          name: p.data.name,
          value: p.data.value,
          description: p.data.description ?? '',
          createdAt: now(),
          updatedAt: now(),
        };
        studio.variables.push(v);
        return [201, v];
      }
      const v = studio.variables.find((x) => x.id === id);
      if (!v) return deps.fail(404, 'Variable not found');
      if (method === 'PUT') {
        const p = variableUpdateSchema.safeParse(body);
        if (!p.success) return deps.invalid(p.error);
        Object.assign(v, p.data, { updatedAt: now() });
        return [200, v];
      }
      if (method === 'DELETE') {
        studio.variables.splice(studio.variables.indexOf(v), 1);
        return [204];
      }
      return [200, v];
    }
    return undefined;
  }

  return { studio, route };
}
