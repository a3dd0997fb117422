import { and, asc, count, desc, eq, ilike, sql } from 'drizzle-orm';
import type { EnvironmentListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { likePattern, pageOf, sortColumn, totalOf } from '../../platform/database/paging.js';
import { clusters, deployments, environments } from '../../platform/database/schema.js';
import type {
  EnvironmentsStore as EnvironmentsStoreType,
  DeploymentRow,
  EnvironmentRow,
  EnvironmentWithCluster,
} from './environments-store-type.js';

export type { DeploymentRow, EnvironmentRow, EnvironmentWithCluster } from './environments-store-type.js';

const SORTABLE = {
  id: environments.id,
  name: environments.name,
  type: environments.type,
  createdAt: environments.createdAt,
  updatedAt: environments.updatedAt,
};

const withCluster = {
  id: environments.id,
  workspaceId: environments.workspaceId,
  name: environments.name,
  description: environments.description,
  type: environments.type,
  clusterId: environments.clusterId,
  namespace: environments.namespace,
  createdAt: environments.createdAt,
  updatedAt: environments.updatedAt,
  clusterName: clusters.name,
  clusterStatus: clusters.status,
};

/** SQL for environments, each read with its cluster's name and status. */
export class EnvironmentsStore implements EnvironmentsStoreType {
  constructor(private readonly db: AppDb) {}

  async list(
    workspaceId: string,
    query: EnvironmentListQuery,
  ): Promise<{ rows: EnvironmentWithCluster[]; total: number }> {
    const where = and(
      eq(environments.workspaceId, workspaceId),
      query.name ? ilike(environments.name, likePattern(query.name)) : undefined,
      query.clusterId ? eq(environments.clusterId, query.clusterId) : undefined,
    );
    const page = pageOf(query, sortColumn(SORTABLE, query._sort, environments.createdAt));
    const rows = await this.db
      .select(withCluster)
      .from(environments)
      .leftJoin(clusters, eq(clusters.id, environments.clusterId))
      .where(where)
      .orderBy(page.order, asc(environments.name))
      .offset(page.offset)
      .limit(page.limit);
    const total = totalOf(await this.db.select({ n: count() }).from(environments).where(where));
    return { rows, total };
  }

  async get(workspaceId: string, id: string): Promise<EnvironmentWithCluster | null> {
    const [row] = await this.db
      .select(withCluster)
      .from(environments)
      .leftJoin(clusters, eq(clusters.id, environments.clusterId))
      .where(and(eq(environments.workspaceId, workspaceId), eq(environments.id, id)))
      .limit(1);
    return row ?? null;
  }

  /** Without a workspace, for the run engine which holds a run's environment id. */
  async byId(id: string): Promise<EnvironmentRow | null> {
    const [row] = await this.db.select().from(environments).where(eq(environments.id, id)).limit(1);
    return row ?? null;
  }

  async nameTaken(workspaceId: string, name: string, exceptId?: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: environments.id })
      .from(environments)
      .where(
        and(
          eq(environments.workspaceId, workspaceId),
          eq(environments.name, name),
          exceptId ? sql`${environments.id} <> ${exceptId}` : undefined,
        ),
      )
      .limit(1);
    return Boolean(row);
  }

  async insert(row: typeof environments.$inferInsert): Promise<void> {
    await this.db.insert(environments).values(row);
  }

  async update(
    id: string,
    patch: Partial<Pick<EnvironmentRow, 'name' | 'description' | 'type' | 'clusterId' | 'namespace'>>,
  ): Promise<void> {
    await this.db
      .update(environments)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(environments.id, id));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(environments).where(eq(environments.id, id));
  }

  async deployments(environmentId: string): Promise<DeploymentRow[]> {
    return this.db
      .select()
      .from(deployments)
      .where(eq(deployments.environmentId, environmentId))
      .orderBy(desc(deployments.deployedAt));
  }
}
