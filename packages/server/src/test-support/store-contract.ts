import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { AppDb } from '../platform/database/database.js';
import { organisations, pipelines, workspaces } from '../platform/database/schema.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/**
 * For a contract test (decision 030): one migrated database for the file, created before its
 * tests and disposed after. `db()` is the drizzle handle the SQL store is built on.
 */
export function contractDatabase(): { db(): AppDb } {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(async () => {
    await test.dispose();
  });
  return { db: () => test.database.db };
}

/** The rows SQL needs under a store's rows: an organisation with two workspaces (the fakes need none). */
export async function seedOrganisation(
  db: AppDb,
): Promise<{ organisationId: string; workspaceIds: [string, string] }> {
  const organisationId = randomUUID();
  const workspaceIds: [string, string] = [randomUUID(), randomUUID()];
  await db.insert(organisations).values({ id: organisationId, name: `org-${organisationId}` });
  await db.insert(workspaces).values(workspaceIds.map((id, i) => ({ id, organisationId, name: `ws-${i}` })));
  return { organisationId, workspaceIds };
}

/** A pipeline row (no versions) for stores that join or point to one. */
export async function seedPipeline(
  db: AppDb,
  p: { id: string; workspaceId: string; name: string; kind?: 'pipeline' | 'template' },
): Promise<void> {
  await db.insert(pipelines).values({ kind: 'pipeline', ...p });
}
