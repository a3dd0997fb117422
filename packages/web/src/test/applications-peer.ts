import type { IncomingMessage } from 'node:http';
import type { ZodError } from 'zod';
import {
  applicationCreateSchema,
  GETTING_STARTED_STEPS,
  K8S_SERVICE_TYPES,
  type ApplicationDetail,
  type Dashboard,
  type Repository,
} from '@slipway/contracts';
import type { Reply } from './peer-types';
import { page } from './route-peer';

/**
 * The applications side of the test peer: `/api/applications`, the spec's k8servicetypes call,
 * `/api/admin/repository` and the dashboard, in memory, validated with the contracts' schemas. Environment names
 * come from the clusters side's environments.
 */
export interface ApplicationsPeerDeps {
  fail: (status: number, message: string, details?: { path: string; message: string }[]) => Reply;
  invalid: (error: ZodError) => Reply;
  environmentName: (id: string) => string | undefined;
}

const AT = '2025-05-01T10:00:00.000Z';

export function sampleApplication(patch: Partial<ApplicationDetail> = {}): ApplicationDetail {
  return {
    id: 'app-1',
    name: 'orders',
    description: '',
    repositoryId: 'repo-1',
    repositoryName: 'orders',
    repositoryUrl: 'http://127.0.0.1:8080/git/ws-1/orders.git',
    branch: 'main',
    image: '127.0.0.1:8080/ws-1/orders',
    pipelineId: 'p-1',
    pipelineName: 'build',
    serviceType: 'ClusterIP',
    port: 8080,
    namespace: 'shop',
    serviceUrl: null,
    health: 'unknown',
    environments: [],
    runs: [],
    imageTags: [],
    createdAt: AT,
    updatedAt: AT,
    ...patch,
  };
}

export function sampleRepository(patch: Partial<Repository> = {}): Repository {
  return {
    id: 'repo-1',
    name: 'orders',
    description: '',
    kind: 'hosted',
    url: 'http://127.0.0.1:8080/git/ws-1/orders.git',
    defaultBranch: 'main',
    lastPushAt: null,
    createdAt: AT,
    updatedAt: AT,
    ...patch,
  };
}

/** A new workspace's dashboard: nothing done, every section empty. */
export function emptyDashboard(): Dashboard {
  return {
    gettingStarted: GETTING_STARTED_STEPS.map((step) => ({ step, done: false })),
    applications: {
      total: 0,
      byHealth: { healthy: 0, progressing: 0, degraded: 0, suspended: 0, missing: 0, unknown: 0 },
      attention: [],
    },
    runs: {
      lastWeek: { pending: 0, in_progress: 0, succeeded: 0, failed: 0, timed_out: 0, cancelled: 0 },
      recent: [],
    },
    clusters: [],
  };
}

export function createApplicationsPeer(deps: ApplicationsPeerDeps) {
  const applications = {
    applications: [] as ApplicationDetail[],
    repositories: [] as Repository[],
    /** what GET /api/dashboard answers */
    dashboard: emptyDashboard(),
  };
  let seq = 0;

  function route(
    req: IncomingMessage,
    path: string,
    query: URLSearchParams,
    body: unknown,
  ): Reply | undefined {
    const method = req.method ?? 'GET';
    if (method === 'GET' && path === '/api/dashboard') return [200, applications.dashboard];
    if (method === 'GET' && path === '/api/admin/app/k8servicetypes')
      return page([...K8S_SERVICE_TYPES], query);
    if (method === 'GET' && path === '/api/admin/repository') return page(applications.repositories, query);
    if (path === '/api/applications') {
      if (method === 'GET') {
        const name = query.get('name')?.toLowerCase();
        return page(
          applications.applications.filter((a) => !name || a.name.includes(name)),
          query,
        );
      }
      if (method === 'POST') {
        const parsed = applicationCreateSchema.safeParse(body);
        if (!parsed.success) return deps.invalid(parsed.error);
        if (applications.applications.some((a) => a.name === parsed.data.name))
          return deps.fail(409, 'An application with this name already exists');
        const { environmentIds, ...fields } = parsed.data;
        const created = sampleApplication({
          ...fields,
          id: `app-new-${++seq}`,
          repositoryName: applications.repositories.find((r) => r.id === fields.repositoryId)?.name ?? null,
          pipelineName: fields.pipelineId ? 'build' : null,
          environments: environmentIds.map((environmentId) => ({
            environmentId,
            environmentName: deps.environmentName(environmentId) ?? environmentId,
            health: 'unknown',
            healthMessage: 'Not deployed yet',
            image: null,
            deployedAt: null,
            runId: null,
          })),
        });
        applications.applications.push(created);
        return [201, created];
      }
    }
    const one = /^\/api\/applications\/([^/]+)$/.exec(path);
    if (one) {
      const index = applications.applications.findIndex((a) => a.id === one[1]);
      if (index < 0) return deps.fail(404, 'Application not found');
      if (method === 'GET') return [200, applications.applications[index]];
      if (method === 'DELETE') {
        applications.applications.splice(index, 1);
        return [204];
      }
    }
    return undefined;
  }

  return { applications, route };
}
