import { randomBytes, randomUUID } from 'node:crypto';
import { Keys } from '../../platform/keys.js';
import { createPipelineCatalogueFeature } from '../pipeline-catalogue/pipeline-catalogue-feature.js';
import { SecretReader } from '../secrets/secret-reader.js';
import { SqlSecretsStore } from '../secrets/secrets-store.js';
import { AuthStore } from '../auth/auth-store.js';
import type { Database } from '../../platform/database/database.js';
import { pipelines, pipelineVersions } from '../../platform/database/schema.js';
import type { Executor } from '../pipelines/executor/executor.js';
import { RunEngine, type RunEngineOptions } from './engine.js';
import { LogHub } from './logs/log-hub.js';
import { LogPublisher } from './logs/log-publisher.js';
import { LogStore } from './logs/log-store.js';
import { PipelineRunsService } from './pipeline-runs-service.js';
import { catalogueDefinitions, readerSecrets } from './run-sources.js';
import { RunStore } from './run-store.js';
import { TaskStore } from './task-store.js';

/** A workspace (with its organisation and owner) to hang pipelines on. */
export async function seedWorkspace(database: Database): Promise<string> {
  const workspaceId = randomUUID();
  await new AuthStore(database.db).createUserWithOrganisation({
    userId: randomUUID(),
    email: `runs-${workspaceId.slice(0, 8)}@example.com`,
    firstName: 'Run',
    lastName: 'Tester',
    passwordHash: 'x',
    emailVerified: true,
    organisationId: randomUUID(),
    organisationName: `Org ${workspaceId}`,
    workspaceId,
  });
  return workspaceId;
}

/** Inserts a pipeline and its version 1 directly (the catalogue API is not needed here). */
export async function insertPipeline(
  database: Database,
  workspaceId: string,
  definition: string,
  options: { name?: string; rollbackPipelineId?: string } = {},
): Promise<string> {
  const id = randomUUID();
  await database.db.insert(pipelines).values({
    id,
    workspaceId,
    name: options.name ?? `p-${id.slice(0, 8)}`,
    rollbackPipelineId: options.rollbackPipelineId ?? null,
  });
  await database.db
    .insert(pipelineVersions)
    .values({ pipelineId: id, version: 1, definition, format: 'yaml' });
  return id;
}

export function runsOf(
  database: Database,
  executor: Executor,
  options: Partial<RunEngineOptions> & { dataDir: string },
) {
  const runs = new RunStore(database.db);
  const tasks = new TaskStore(database.db);
  const logs = new LogStore(database.db);
  const definitions = catalogueDefinitions(
    createPipelineCatalogueFeature({ db: database.db }).exports.loader,
  );
  const engine = new RunEngine({
    runs,
    tasks,
    executor,
    definitions,
    secrets: readerSecrets(new SecretReader(new SqlSecretsStore(database.db), new Keys(randomBytes(32)))),
    logs: new LogPublisher(logs, new LogHub(), null),
    tickMs: 20,
    ...options,
  });
  const service = new PipelineRunsService(runs, tasks, logs, () => engine.notify(), definitions);
  return { runs, tasks, engine, service };
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error('waitFor: timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const FINISHED = ['succeeded', 'failed', 'timed_out', 'cancelled'];
