import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../platform/database/database.js';
import { instance } from '../../platform/database/schema.js';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { SqlInstanceStore } from './instance-store.js';

describe('installation record', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t.dispose();
  });

  it('records one installation however many starts race, and counts them all', async () => {
    // On PostgreSQL each store gets its own pool, as two replicas would.
    const others = t.url
      ? await Promise.all([1, 2, 3].map(() => openDatabase({ databaseUrl: t.url, dataDir: '' })))
      : [];
    try {
      const stores = [t.database, ...others].map((d) => new SqlInstanceStore(d.db));
      const starts = [...stores, ...stores].map((s) => s.recordStart());
      const infos = await Promise.all(starts);
      expect(new Set(infos.map((i) => i.id)).size).toBe(1);
      expect((await t.database.db.select().from(instance)).length).toBe(1);
      expect((await stores[0]!.get())?.starts).toBe(starts.length);
    } finally {
      await Promise.all(others.map((d) => d.close()));
    }
  });
});
