import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { appliedMigrationCount, expectedMigrations, migrate } from './migrate.js';
import {
  createScratchPostgres,
  createTestDatabase,
  onPostgres,
  type TestDatabase,
} from '../../test-support/test-database.js';

describe('migrations', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await t.dispose();
  });

  it('applies every committed migration once, and nothing on a second run', async () => {
    const expected = expectedMigrations().length;
    expect(expected).toBeGreaterThan(0);
    expect(await appliedMigrationCount(t.database)).toBe(0);
    const first = await migrate(t.database);
    expect(first.applied).toHaveLength(expected);
    const second = await migrate(t.database);
    expect(second.applied).toHaveLength(0);
    expect(await appliedMigrationCount(t.database)).toBe(expected);
  });

  it('serialises concurrent runs in one process', async () => {
    const results = await Promise.all([migrate(t.database), migrate(t.database)]);
    expect(results.flatMap((r) => r.applied)).toHaveLength(0);
  });
});

describe.runIf(onPostgres)('migrations on PostgreSQL from two processes at once', () => {
  it('applies each migration exactly once under the advisory lock', async () => {
    const scratch = await createScratchPostgres(process.env.DATABASE_URL!);
    const a = await openDatabase({ databaseUrl: scratch.url, dataDir: '' });
    const b = await openDatabase({ databaseUrl: scratch.url, dataDir: '' });
    try {
      const [ra, rb] = await Promise.all([migrate(a), migrate(b)]);
      expect(ra.applied.length + rb.applied.length).toBe(expectedMigrations().length);
      expect(await appliedMigrationCount(a)).toBe(expectedMigrations().length);
    } finally {
      await a.close();
      await b.close();
      await scratch.drop();
    }
  });
});
