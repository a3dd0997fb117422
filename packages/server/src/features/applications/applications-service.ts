import {
  APPLICATION_HEALTH,
  K8S_SERVICE_TYPES,
  type Application,
  type ApplicationDetail,
  type ApplicationListQuery,
  type ApplicationHealth,
  type K8sServiceTypeName,
  type ListQuery,
} from '@slipway/contracts';
import { InputError } from '../../platform/errors.js';
import { givenFields, NamedRowsService } from '../../platform/named-rows.js';
import type {
  ApplicationDeploymentRow,
  ApplicationsStore,
  ApplicationWithNames,
} from './applications-store-type.js';

export const APPLICATION_NAME_TAKEN = 'An application with this name already exists';
export const APPLICATION_NOT_FOUND = 'Application not found';
const RECENT_RUNS = 20;

/** Worst first: an application's health is the worst of its environments' (as Argo CD orders them). */
const HEALTH_ORDER: ApplicationHealth[] = [
  'degraded',
  'missing',
  'progressing',
  'suspended',
  'unknown',
  'healthy',
];

export function worstHealth(healths: ApplicationHealth[]): ApplicationHealth {
  if (!healths.length) return 'unknown';
  return healths.reduce((worst, h) => (HEALTH_ORDER.indexOf(h) < HEALTH_ORDER.indexOf(worst) ? h : worst));
}

const asHealth = (v: string): ApplicationHealth =>
  (APPLICATION_HEALTH as readonly string[]).includes(v) ? (v as ApplicationHealth) : 'unknown';

/** What the service reads from other features: a repository's clone URL and an image's tags. */
export interface ApplicationLinks {
  repositoryUrl(workspaceId: string, repository: { name: string; kind: string; url: string | null }): string;
  /** the image's tags when it is in Slipway's registry, newest first; [] for an image elsewhere */
  imageTags(workspaceId: string, image: string): Promise<ApplicationDetail['imageTags']>;
}

export interface ApplicationInput {
  name: string;
  description: string;
  repositoryId: string | null;
  branch: string;
  image: string;
  pipelineId: string | null;
  serviceType: K8sServiceTypeName;
  port: number;
  namespace: string;
  environmentIds: string[];
  serviceUrl: string | null;
}

/**
 * Applications: each built from a repository's branch by a pipeline into an image, served as a
 * Kubernetes Service of a type and port in a namespace of each environment it is deployed to.
 * Its health per environment is its deployment record's (health-tracker.ts keeps it current).
 */
export class ApplicationsService extends NamedRowsService<ApplicationWithNames, ApplicationDetail> {
  constructor(
    private readonly store: ApplicationsStore,
    private readonly links: ApplicationLinks,
  ) {
    super(store, { notFound: APPLICATION_NOT_FOUND, nameTaken: APPLICATION_NAME_TAKEN }, (row) =>
      this.detail(row),
    );
  }

  /** `GET /admin/app/k8servicetypes`: the Service types, paged as the spec's call asks (`_end=100`). */
  serviceTypes(query: ListQuery) {
    const sorted = [...K8S_SERVICE_TYPES].sort((a, b) => {
      const key = query._sort === 'name' ? 'name' : 'id';
      const order = a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0;
      return query._order === 'DESC' ? -order : order;
    });
    return { rows: sorted.slice(query._start, query._end), total: sorted.length };
  }

  async list(workspaceId: string, query: ApplicationListQuery) {
    const { rows, total } = await this.store.list(workspaceId, query);
    return { rows: await this.withEnvironments(workspaceId, rows), total };
  }

  /** The application with its pipeline's latest runs and its image's tags. */
  private async detail(row: ApplicationWithNames): Promise<ApplicationDetail> {
    const workspaceId = row.workspaceId;
    const [application] = await this.withEnvironments(workspaceId, [row]);
    const runs = row.pipelineId ? await this.store.runs(workspaceId, row.pipelineId, RECENT_RUNS) : [];
    return {
      ...application!,
      runs: runs.map((r) => ({
        id: r.id,
        name: r.name,
        status: r.status,
        trigger: r.trigger as { kind: string; id?: string },
        queuedAt: r.queuedAt.toISOString(),
        startedAt: r.startedAt?.toISOString() ?? null,
        finishedAt: r.finishedAt?.toISOString() ?? null,
      })),
      imageTags: await this.links.imageTags(workspaceId, row.image),
    };
  }

  async create(
    workspaceId: string,
    input: ApplicationInput,
    createdBy: string | null,
  ): Promise<ApplicationDetail> {
    await this.checkLinks(workspaceId, input);
    const { environmentIds, ...fields } = input;
    return this.insertNamed(workspaceId, input.name, (id) =>
      this.store.insert({ id, workspaceId, ...fields, createdBy }, environmentIds),
    );
  }

  /** Given fields replace theirs (name and namespace stay); `environmentIds`, when given, replaces the list. */
  async update(
    workspaceId: string,
    id: string,
    input: Partial<Omit<ApplicationInput, 'name' | 'namespace'>>,
  ): Promise<ApplicationDetail> {
    await this.checkLinks(workspaceId, input);
    const patch = givenFields(input, [
      'description',
      'repositoryId',
      'branch',
      'image',
      'pipelineId',
      'serviceType',
      'port',
      'serviceUrl',
    ]);
    return this.updateNamed(workspaceId, id, undefined, () =>
      this.store.update(id, patch, input.environmentIds),
    );
  }

  /** The repository, pipeline and environments named are the workspace's own. */
  private async checkLinks(
    workspaceId: string,
    input: { repositoryId?: string | null; pipelineId?: string | null; environmentIds?: string[] },
  ) {
    const refuse = (field: string, message: string) => {
      throw new InputError(`${field}: ${message}`, [{ path: `body.${field}`, message }]);
    };
    if (input.repositoryId) {
      const found = await this.store.existing(workspaceId, 'repository', [input.repositoryId]);
      if (!found.size) refuse('repositoryId', 'no such repository in this workspace');
    }
    if (input.pipelineId) {
      const found = await this.store.existing(workspaceId, 'pipeline', [input.pipelineId]);
      if (!found.size) refuse('pipelineId', 'no such pipeline in this workspace');
    }
    if (input.environmentIds) {
      const found = await this.store.existing(workspaceId, 'environment', input.environmentIds);
      const missing = input.environmentIds.find((e) => !found.has(e));
      if (missing) refuse('environmentIds', `${missing} is not an environment of this workspace`);
    }
  }

  private async withEnvironments(workspaceId: string, rows: ApplicationWithNames[]): Promise<Application[]> {
    const environments = await this.store.environments(rows.map((r) => r.id));
    const deployments = await this.store.deployments(workspaceId, [...new Set(rows.map((r) => r.name))]);
    const deployed = new Map<string, ApplicationDeploymentRow>();
    for (const d of deployments)
      if (!deployed.has(`${d.environmentId}\0${d.name}`)) deployed.set(`${d.environmentId}\0${d.name}`, d);
    return rows.map((row) => {
      const envs = environments
        .filter((e) => e.applicationId === row.id)
        .map((e) => {
          const d = deployed.get(`${e.environmentId}\0${row.name}`);
          return {
            environmentId: e.environmentId,
            environmentName: e.environmentName,
            health: d ? asHealth(d.health) : 'unknown',
            healthMessage: d ? d.healthMessage : 'Not deployed yet',
            image: d?.image ?? null,
            deployedAt: d?.deployedAt.toISOString() ?? null,
            runId: d?.runId ?? null,
          } satisfies Application['environments'][number];
        });
      return {
        id: row.id,
        name: row.name,
        description: row.description,
        repositoryId: row.repositoryId,
        repositoryName: row.repositoryName,
        repositoryUrl:
          row.repositoryName && row.repositoryKind
            ? this.links.repositoryUrl(workspaceId, {
                name: row.repositoryName,
                kind: row.repositoryKind,
                url: row.repositoryUrl,
              })
            : null,
        branch: row.branch,
        image: row.image,
        pipelineId: row.pipelineId,
        pipelineName: row.pipelineName,
        serviceType: row.serviceType as K8sServiceTypeName,
        port: row.port,
        namespace: row.namespace,
        serviceUrl: row.serviceUrl,
        health: worstHealth(envs.filter((e) => e.deployedAt).map((e) => e.health)),
        environments: envs,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      };
    });
  }
}
