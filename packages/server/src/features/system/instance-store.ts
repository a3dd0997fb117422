import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { instance } from '../../platform/database/schema.js';

export interface InstanceInfo {
  id: string;
  firstStartedAt: string;
  starts: number;
}

export interface InstanceStore {
  /** Creates the installation's row on first start; counts every later start. */
  recordStart(): Promise<InstanceInfo>;
  get(): Promise<InstanceInfo | null>;
}

function toInfo(row: typeof instance.$inferSelect): InstanceInfo {
  return { id: row.id, firstStartedAt: row.firstStartedAt.toISOString(), starts: row.starts };
}

/** "inst" in ASCII; distinct from the migration lock. */
const INSTANCE_LOCK_KEY = 0x696e7374;

export class SqlInstanceStore implements InstanceStore {
  constructor(private readonly db: AppDb) {}

  /** Under a transaction-scoped advisory lock, so replicas starting at once record one installation. */
  async recordStart(): Promise<InstanceInfo> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${INSTANCE_LOCK_KEY})`);
      const [existing] = await tx.select().from(instance).orderBy(instance.firstStartedAt).limit(1);
      if (existing) {
        const [row] = await tx
          .update(instance)
          .set({ starts: sql`${instance.starts} + 1`, lastStartedAt: new Date() })
          .where(sql`${instance.id} = ${existing.id}`)
          .returning();
        return toInfo(row!);
      }
      const [row] = await tx.insert(instance).values({ id: randomUUID() }).returning();
      return toInfo(row!);
    });
  }

  async get(): Promise<InstanceInfo | null> {
    const rows = await this.db.select().from(instance).orderBy(instance.firstStartedAt).limit(1);
    return rows[0] ? toInfo(rows[0]) : null;
  }
}
