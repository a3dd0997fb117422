import {
  APPLICATION_HEALTH,
  CLUSTER_STATUSES,
  PIPELINE_RUN_STATUSES,
  type ApplicationHealth,
  type ClusterStatus,
  type Dashboard,
  type Permission,
  type PipelineRunStatus,
} from '@slipway/contracts';
import type { ApplicationsService } from '../applications/applications-service.js';
import type { DashboardStore } from './dashboard-store.js';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const RECENT_RUNS = 10;
const ATTENTION = 8;
/** The most applications read for the health counts: the API's page ceiling. */
const APPLICATIONS_READ = 500;
/** Failing first: an application's health, worst first. */
const HEALTH_RANK: ApplicationHealth[] = [
  'degraded',
  'missing',
  'progressing',
  'suspended',
  'unknown',
  'healthy',
];
/** Clusters that need a look first. */
const CLUSTER_RANK: ClusterStatus[] = [
  'creation_failed',
  'not_active',
  'attaching',
  'in_creation',
  'detached',
  'active',
];

const zeroes = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

/** The dashboard: the getting-started checklist and, per area the caller may view, its state. */
export class DashboardService {
  constructor(
    private readonly store: DashboardStore,
    private readonly applications: Pick<ApplicationsService, 'list'>,
  ) {}

  async get(
    workspaceId: string,
    may: (permission: Permission) => boolean,
    now = new Date(),
  ): Promise<Dashboard> {
    const counts = await this.store.counts(workspaceId);
    const apps = await this.applications.list(workspaceId, {
      _start: 0,
      _end: APPLICATIONS_READ,
      _sort: 'updatedAt',
      _order: 'DESC',
    });
    const gettingStarted: Dashboard['gettingStarted'] = [
      { step: 'cluster', done: counts.activeClusters > 0 },
      { step: 'application', done: apps.total > 0 },
      { step: 'pipeline', done: counts.pipelineCount > 0 },
      { step: 'run', done: counts.runCount > 0 },
      { step: 'deployment', done: counts.deploymentCount > 0 },
    ];

    let applications: Dashboard['applications'] = null;
    if (may('applications:view')) {
      const byHealth = zeroes(APPLICATION_HEALTH);
      for (const a of apps.rows) byHealth[a.health] += 1;
      const attention = [...apps.rows]
        .sort((a, b) => HEALTH_RANK.indexOf(a.health) - HEALTH_RANK.indexOf(b.health))
        .slice(0, ATTENTION)
        .map((a) => ({ id: a.id, name: a.name, health: a.health }));
      applications = { total: apps.total, byHealth, attention };
    }

    let runs: Dashboard['runs'] = null;
    if (may('pipelines:view')) {
      const lastWeek = zeroes(PIPELINE_RUN_STATUSES);
      for (const r of await this.store.runsByStatus(workspaceId, new Date(now.getTime() - WEEK_MS)))
        if (r.status in lastWeek) lastWeek[r.status as PipelineRunStatus] = r.n;
      const recent = (await this.store.recentRuns(workspaceId, RECENT_RUNS)).map((r) => ({
        id: r.id,
        name: r.name,
        pipelineId: r.pipelineId,
        pipelineName: r.pipelineName,
        status: r.status as PipelineRunStatus,
        trigger: r.trigger as { kind: string; id?: string | null },
        queuedAt: r.queuedAt.toISOString(),
        finishedAt: r.finishedAt?.toISOString() ?? null,
      }));
      runs = { lastWeek, recent };
    }

    let clusters: Dashboard['clusters'] = null;
    if (may('clusters:view')) {
      clusters = (await this.store.clusters(workspaceId))
        .map((c) => ({
          id: c.id,
          name: c.name,
          status: ((CLUSTER_STATUSES as readonly string[]).includes(c.status)
            ? c.status
            : 'not_active') as ClusterStatus,
          nodeCount: c.nodeCount,
          lastHeartbeatAt: c.lastHeartbeatAt?.toISOString() ?? null,
        }))
        .sort((a, b) => CLUSTER_RANK.indexOf(a.status) - CLUSTER_RANK.indexOf(b.status));
    }
    return { gettingStarted, applications, runs, clusters };
  }
}
