import { and, asc, desc, eq, exists, inArray } from 'drizzle-orm';
import type { ApplicationListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { rowsWhere } from '../../platform/database/rows.js';
import { nameAndDateSorts, SqlNamedStore } from '../../platform/database/sql-named-store.js';
import {
  applicationEnvironments,
  applications,
  deployments,
  environments,
  pipelineRuns,
  pipelines,
  repositories,
} from '../../platform/database/schema.js';
import { getInWorkspace, listPage } from '../../platform/database/workspace-rows.js';
import type {
  ApplicationDeploymentRow,
  ApplicationPatch,
  ApplicationRow,
  ApplicationRunRow,
  ApplicationsStore,
  ApplicationWithNames,
} from './applications-store-type.js';

const SORTABLE = {
  ...nameAndDateSorts(applications),
  namespace: applications.namespace,
  serviceType: applications.serviceType,
};

const withNames = {
  id: applications.id,
  workspaceId: applications.workspaceId,
  name: applications.name,
  description: applications.description,
  repositoryId: applications.repositoryId,
  branch: applications.branch,
  image: applications.image,
  pipelineId: applications.pipelineId,
  serviceType: applications.serviceType,
  port: applications.port,
  namespace: applications.namespace,
  serviceUrl: applications.serviceUrl,
  createdBy: applications.createdBy,
  createdAt: applications.createdAt,
  updatedAt: applications.updatedAt,
  repositoryName: repositories.name,
  repositoryKind: repositories.kind,
  repositoryUrl: repositories.url,
  pipelineName: pipelines.name,
};

/** SQL for applications, read with their repository's and pipeline's names. */
export class SqlApplicationsStore extends SqlNamedStore<typeof applications> implements ApplicationsStore {
  constructor(db: AppDb) {
    super(db, applications);
  }

  private selectWithNames() {
    return this.db
      .select(withNames)
      .from(applications)
      .leftJoin(repositories, eq(repositories.id, applications.repositoryId))
      .leftJoin(pipelines, eq(pipelines.id, applications.pipelineId))
      .$dynamic();
  }

  list(
    workspaceId: string,
    query: ApplicationListQuery,
  ): Promise<{ rows: ApplicationWithNames[]; total: number }> {
    const inEnvironment = query.environmentId
      ? exists(
          this.db
            .select({ one: applicationEnvironments.applicationId })
            .from(applicationEnvironments)
            .where(
              and(
                eq(applicationEnvironments.applicationId, applications.id),
                eq(applicationEnvironments.environmentId, query.environmentId),
              ),
            ),
        )
      : undefined;
    return listPage(this.db, applications, {
      workspaceId,
      query,
      nameColumn: applications.name,
      where: [inEnvironment],
      sorts: SORTABLE,
      fallbackSort: applications.name,
      tiebreak: asc(applications.name),
      select: this.selectWithNames(),
    });
  }

  /** The application with its repository's and pipeline's names. */
  override get(workspaceId: string, id: string): Promise<ApplicationWithNames | null> {
    return getInWorkspace(this.db, applications, workspaceId, id, { select: this.selectWithNames() });
  }

  override async insert(row: typeof applications.$inferInsert, environmentIds: string[] = []): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(applications).values(row);
      if (environmentIds.length)
        await tx
          .insert(applicationEnvironments)
          .values(environmentIds.map((environmentId) => ({ applicationId: row.id, environmentId })));
    });
  }

  override async update(id: string, patch: ApplicationPatch, environmentIds?: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(applications)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(applications.id, id));
      if (!environmentIds) return;
      await tx.delete(applicationEnvironments).where(eq(applicationEnvironments.applicationId, id));
      if (environmentIds.length)
        await tx
          .insert(applicationEnvironments)
          .values(environmentIds.map((environmentId) => ({ applicationId: id, environmentId })));
    });
  }

  async environments(applicationIds: string[]) {
    if (!applicationIds.length) return [];
    return this.db
      .select({
        applicationId: applicationEnvironments.applicationId,
        environmentId: applicationEnvironments.environmentId,
        environmentName: environments.name,
      })
      .from(applicationEnvironments)
      .innerJoin(environments, eq(environments.id, applicationEnvironments.environmentId))
      .where(inArray(applicationEnvironments.applicationId, applicationIds))
      .orderBy(asc(environments.name));
  }

  async deployments(workspaceId: string, names: string[]): Promise<ApplicationDeploymentRow[]> {
    if (!names.length) return [];
    return rowsWhere(
      this.db,
      deployments,
      and(eq(deployments.workspaceId, workspaceId), inArray(deployments.name, names)),
      desc(deployments.deployedAt),
    );
  }

  async runs(workspaceId: string, pipelineId: string, limit: number): Promise<ApplicationRunRow[]> {
    return this.db
      .select({
        id: pipelineRuns.id,
        name: pipelineRuns.name,
        status: pipelineRuns.status,
        trigger: pipelineRuns.trigger,
        queuedAt: pipelineRuns.queuedAt,
        startedAt: pipelineRuns.startedAt,
        finishedAt: pipelineRuns.finishedAt,
      })
      .from(pipelineRuns)
      .where(and(eq(pipelineRuns.workspaceId, workspaceId), eq(pipelineRuns.pipelineId, pipelineId)))
      .orderBy(desc(pipelineRuns.queuedAt), desc(pipelineRuns.number))
      .limit(limit);
  }

  byRepository(repositoryId: string): Promise<ApplicationRow[]> {
    return rowsWhere(
      this.db,
      applications,
      eq(applications.repositoryId, repositoryId),
      asc(applications.name),
    );
  }

  async existing(workspaceId: string, kind: 'environment' | 'repository' | 'pipeline', ids: string[]) {
    if (!ids.length) return new Set<string>();
    const table = kind === 'environment' ? environments : kind === 'repository' ? repositories : pipelines;
    const rows = await this.db
      .select({ id: table.id })
      .from(table)
      .where(
        and(
          eq(table.workspaceId, workspaceId),
          inArray(table.id, ids),
          // templates and run documents' ad-hoc pipelines are not pipelines an application runs
          kind === 'pipeline' ? eq(pipelines.kind, 'pipeline') : undefined,
        ),
      );
    return new Set(rows.map((r) => r.id));
  }
}
