import type { ApplicationListQuery } from '@slipway/contracts';
import type { applications, deployments, pipelineRuns } from '../../platform/database/schema.js';
import type { NamedRowsStore } from '../../platform/named-rows.js';

export type ApplicationRow = typeof applications.$inferSelect;
export type ApplicationWithNames = ApplicationRow & {
  repositoryName: string | null;
  repositoryKind: string | null;
  repositoryUrl: string | null;
  pipelineName: string | null;
};
export type ApplicationPatch = Partial<
  Pick<
    ApplicationRow,
    'description' | 'repositoryId' | 'branch' | 'image' | 'pipelineId' | 'serviceType' | 'port' | 'serviceUrl'
  >
>;
export type ApplicationDeploymentRow = typeof deployments.$inferSelect;
export type ApplicationRunRow = Pick<
  typeof pipelineRuns.$inferSelect,
  'id' | 'name' | 'status' | 'trigger' | 'queuedAt' | 'startedAt' | 'finishedAt'
>;

/** What the applications service needs of storage; SqlApplicationsStore and FakeApplicationsStore implement it. */
export interface ApplicationsStore extends NamedRowsStore<ApplicationWithNames> {
  /**
   * A page of a workspace's applications with their repository's and pipeline's names, filtered
   * by name (anywhere, any case) and by an environment they are deployed to, with the total.
   */
  list(
    workspaceId: string,
    query: ApplicationListQuery,
  ): Promise<{ rows: ApplicationWithNames[]; total: number }>;
  /** Inserts the application with its environments, together; a taken name throws a unique violation. */
  insert(row: typeof applications.$inferInsert, environmentIds: string[]): Promise<void>;
  /** Changes fields and, when given, replaces the environments, together. */
  update(id: string, patch: ApplicationPatch, environmentIds?: string[]): Promise<void>;
  /** Each application's environments, with their names. */
  environments(
    applicationIds: string[],
  ): Promise<Array<{ applicationId: string; environmentId: string; environmentName: string }>>;
  /** The workspace's deployment records of applications with these names. */
  deployments(workspaceId: string, names: string[]): Promise<ApplicationDeploymentRow[]>;
  /** The pipeline's latest runs, newest first. */
  runs(workspaceId: string, pipelineId: string, limit: number): Promise<ApplicationRunRow[]>;
  /** The applications built from a repository (what a push to it starts). */
  byRepository(repositoryId: string): Promise<ApplicationRow[]>;
  /** Which of these ids are environments, repositories or pipelines of the workspace. */
  existing(
    workspaceId: string,
    kind: 'environment' | 'repository' | 'pipeline',
    ids: string[],
  ): Promise<Set<string>>;
}
