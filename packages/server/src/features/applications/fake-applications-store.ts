import type { ApplicationListQuery } from '@slipway/contracts';
import { FakeNamedStore } from '../../platform/database/fake-named-store.js';
import type { ApplicationRow } from './applications-store-type.js';
import type {
  ApplicationDeploymentRow,
  ApplicationPatch,
  ApplicationRunRow,
  ApplicationsStore,
  ApplicationWithNames,
} from './applications-store-type.js';

/**
 * Applications in memory, with the SQL store's scoping, paging and (workspace, name) uniqueness.
 * What the SQL store joins in — the repositories', pipelines' and environments' names, the
 * deployment records and the runs — a test puts in the public maps and lists.
 */
export class FakeApplicationsStore extends FakeNamedStore<ApplicationRow> implements ApplicationsStore {
  readonly repositories = new Map<
    string,
    { workspaceId: string; name: string; kind: string; url: string | null }
  >();
  readonly pipelines = new Map<string, { workspaceId: string; name: string }>();
  readonly environmentNames = new Map<string, { workspaceId: string; name: string }>();
  readonly deploymentRows: ApplicationDeploymentRow[] = [];
  readonly runRows: Array<ApplicationRunRow & { workspaceId: string; pipelineId: string }> = [];
  private readonly links = new Map<string, string[]>();

  constructor() {
    super('applications', 'applications_ws_name', (now) => ({
      description: '',
      repositoryId: null,
      branch: 'main',
      pipelineId: null,
      serviceUrl: null,
      createdBy: null,
      createdAt: now,
      updatedAt: now,
    }));
  }

  private withNames(row: ApplicationRow): ApplicationWithNames {
    const repository = row.repositoryId ? this.repositories.get(row.repositoryId) : undefined;
    return {
      ...row,
      repositoryName: repository?.name ?? null,
      repositoryKind: repository?.kind ?? null,
      repositoryUrl: repository?.url ?? null,
      pipelineName: (row.pipelineId && this.pipelines.get(row.pipelineId)?.name) || null,
    };
  }

  async list(workspaceId: string, query: ApplicationListQuery) {
    const env = query.environmentId;
    const page = this.table.page(
      workspaceId,
      query,
      ['id', 'name', 'namespace', 'serviceType', 'createdAt', 'updatedAt'],
      'name',
      env ? (r) => (this.links.get(r.id) ?? []).includes(env) : undefined,
    );
    return { rows: page.rows.map((r) => this.withNames(r)), total: page.total };
  }

  override async get(workspaceId: string, id: string) {
    const row = await super.get(workspaceId, id);
    return row ? this.withNames(row) : null;
  }

  override async insert(row: Partial<ApplicationRow>, environmentIds: string[] = []) {
    await super.insert(row);
    this.links.set(row.id!, [...environmentIds]);
  }

  override async update(id: string, patch: ApplicationPatch, environmentIds?: string[]) {
    await super.update(id, { ...patch, updatedAt: new Date() });
    if (environmentIds) this.links.set(id, [...environmentIds]);
  }

  override async delete(id: string) {
    await super.delete(id);
    this.links.delete(id);
  }

  async environments(applicationIds: string[]) {
    return applicationIds
      .flatMap((applicationId) =>
        (this.links.get(applicationId) ?? []).map((environmentId) => ({
          applicationId,
          environmentId,
          environmentName: this.environmentNames.get(environmentId)?.name ?? environmentId,
        })),
      )
      .sort((a, b) => a.environmentName.localeCompare(b.environmentName));
  }

  async deployments(workspaceId: string, names: string[]) {
    return this.deploymentRows
      .filter((d) => d.workspaceId === workspaceId && names.includes(d.name))
      .sort((a, b) => b.deployedAt.getTime() - a.deployedAt.getTime());
  }

  async runs(workspaceId: string, pipelineId: string, limit: number) {
    return this.runRows
      .filter((r) => r.workspaceId === workspaceId && r.pipelineId === pipelineId)
      .sort((a, b) => b.queuedAt.getTime() - a.queuedAt.getTime())
      .slice(0, limit);
  }

  async byRepository(repositoryId: string) {
    return this.table.everywhere().filter((r) => r.repositoryId === repositoryId);
  }

  async existing(workspaceId: string, kind: 'environment' | 'repository' | 'pipeline', ids: string[]) {
    const source =
      kind === 'environment'
        ? this.environmentNames
        : kind === 'repository'
          ? this.repositories
          : this.pipelines;
    return new Set(ids.filter((id) => source.get(id)?.workspaceId === workspaceId));
  }
}
