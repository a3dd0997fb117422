import {
  APPLICATION_HEALTH,
  CLUSTER_STATUSES,
  ENVIRONMENT_TYPES,
  TASK_RUNNERS,
  type ClusterStatus,
  type Deployment,
  type Environment,
  type EnvironmentDetail,
  type EnvironmentListQuery,
  type EnvironmentType,
  type TaskRunner,
} from '@slipway/contracts';
import { InputError } from '../../platform/errors.js';
import { describedRow, givenFields, NamedRowsService } from '../../platform/named-rows.js';
import type { ClustersStore } from '../clusters/clusters-store-type.js';
import type { DeploymentRow, EnvironmentWithCluster } from './environments-store.js';
import type { EnvironmentsStore } from './environments-store-type.js';

export const ENVIRONMENT_NAME_TAKEN = 'An environment with this name already exists';
export const ENVIRONMENT_NOT_FOUND = 'Environment not found';

const oneOf = <T extends string>(list: readonly T[], v: string | null, fallback: T): T =>
  v !== null && (list as readonly string[]).includes(v) ? (v as T) : fallback;

export function toEnvironment(row: EnvironmentWithCluster): Environment {
  return {
    ...describedRow(row),
    type: oneOf(ENVIRONMENT_TYPES, row.type, 'other') as EnvironmentType,
    clusterId: row.clusterId,
    clusterName: row.clusterName,
    clusterStatus: row.clusterStatus
      ? (oneOf(CLUSTER_STATUSES, row.clusterStatus, 'not_active') as ClusterStatus)
      : null,
    namespace: row.namespace,
    taskRunner: oneOf(TASK_RUNNERS, row.taskRunner, 'cluster'),
  };
}

export function toDeployment(row: DeploymentRow): Deployment {
  return {
    id: row.id,
    environmentId: row.environmentId,
    name: row.name,
    namespace: row.namespace,
    resources: Array.isArray(row.resources) ? (row.resources as Deployment['resources']) : [],
    image: row.image,
    health: oneOf(APPLICATION_HEALTH, row.health, 'unknown'),
    healthMessage: row.healthMessage,
    runId: row.runId,
    deployedAt: row.deployedAt.toISOString(),
    healthCheckedAt: row.healthCheckedAt?.toISOString() ?? null,
  };
}

interface Fields {
  name?: string;
  description?: string;
  type?: EnvironmentType;
  clusterId?: string | null;
  namespace?: string | null;
  taskRunner?: TaskRunner;
}

/** Environments: a name and type, bound to a namespace on one of the workspace's clusters. */
export class EnvironmentsService extends NamedRowsService<EnvironmentWithCluster, EnvironmentDetail> {
  constructor(
    private readonly store: EnvironmentsStore,
    private readonly clusters: ClustersStore,
  ) {
    super(store, { notFound: ENVIRONMENT_NOT_FOUND, nameTaken: ENVIRONMENT_NAME_TAKEN }, async (row) => {
      const deployments = await store.deployments(row.id);
      return { ...toEnvironment(row), deployments: deployments.map(toDeployment) };
    });
  }

  async list(workspaceId: string, query: EnvironmentListQuery) {
    const { rows, total } = await this.store.list(workspaceId, query);
    return { rows: rows.map(toEnvironment), total };
  }

  async create(
    workspaceId: string,
    input: Required<Pick<Fields, 'name' | 'type'>> & Fields,
  ): Promise<EnvironmentDetail> {
    return this.insertNamed(workspaceId, input.name, async (id) => {
      await this.checkBinding(workspaceId, input.clusterId ?? null, input.namespace ?? null);
      await this.store.insert({
        id,
        workspaceId,
        name: input.name,
        description: input.description ?? '',
        type: input.type,
        clusterId: input.clusterId ?? null,
        namespace: input.clusterId ? (input.namespace ?? null) : null,
        taskRunner: input.taskRunner ?? 'cluster',
      });
    });
  }

  async update(workspaceId: string, id: string, input: Fields): Promise<EnvironmentDetail> {
    return this.updateNamed(workspaceId, id, input.name, async () => {
      const binding = input.clusterId !== undefined || input.namespace !== undefined;
      if (binding) await this.checkBinding(workspaceId, input.clusterId ?? null, input.namespace ?? null);
      await this.store.update(id, {
        ...givenFields(input, ['name', 'description', 'type', 'taskRunner']),
        ...(binding ? { clusterId: input.clusterId ?? null, namespace: input.namespace ?? null } : {}),
      });
    });
  }

  /** The cluster is this workspace's; a limited agent's cluster only takes its allowed namespaces. */
  private async checkBinding(workspaceId: string, clusterId: string | null, namespace: string | null) {
    if (!clusterId) return;
    const cluster = await this.clusters.get(workspaceId, clusterId);
    if (!cluster)
      throw new InputError('clusterId: no such cluster in this workspace', [
        { path: 'body.clusterId', message: 'no such cluster in this workspace' },
      ]);
    const allowed = Array.isArray(cluster.allowedNamespaces) ? (cluster.allowedNamespaces as string[]) : [];
    if (namespace && cluster.limitedAgentPermission && !allowed.includes(namespace))
      throw new InputError(`namespace: ${namespace} is not an allowed namespace of this limited agent`, [
        { path: 'body.namespace', message: `${namespace} is not an allowed namespace of this limited agent` },
      ]);
  }
}
