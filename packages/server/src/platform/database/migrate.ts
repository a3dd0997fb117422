import { fileURLToPath } from 'node:url';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import type { Database } from './database.js';

/** The committed drizzle-kit migrations; the same relative place from src/ and dist/. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../../drizzle', import.meta.url));

/** Any constant works; this one spells "slip" so it is recognisable in pg_locks. */
const MIGRATION_LOCK_KEY = 0x736c6970;

export function expectedMigrations(folder = MIGRATIONS_FOLDER): MigrationMeta[] {
  return readMigrationFiles({ migrationsFolder: folder });
}

export interface MigrationResult {
  applied: string[];
  total: number;
}

/**
 * Applies pending migrations, each in its own transaction, holding a session-level advisory
 * lock so that two processes starting at once apply them exactly once. Idempotent.
 */
export async function migrate(database: Database, folder = MIGRATIONS_FOLDER): Promise<MigrationResult> {
  const migrations = expectedMigrations(folder);
  return database.withSession(async (session) => {
    await session.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await session.exec(`CREATE TABLE IF NOT EXISTS slipway_migrations (
        hash text PRIMARY KEY,
        created_at bigint NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const rows = await session.query<{ hash: string }>('SELECT hash FROM slipway_migrations');
      const done = new Set(rows.map((r) => r.hash));
      const applied: string[] = [];
      for (const m of migrations) {
        if (done.has(m.hash)) continue;
        await session.exec('BEGIN');
        try {
          for (const statement of m.sql) if (statement.trim()) await session.exec(statement);
          await session.query('INSERT INTO slipway_migrations (hash, created_at) VALUES ($1, $2)', [
            m.hash,
            m.folderMillis,
          ]);
          await session.exec('COMMIT');
        } catch (err) {
          await session.exec('ROLLBACK');
          throw err;
        }
        applied.push(m.hash);
      }
      return { applied, total: migrations.length };
    } finally {
      await session.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  });
}

/** How many of the expected migrations the database has. */
export async function appliedMigrationCount(database: Database, folder = MIGRATIONS_FOLDER): Promise<number> {
  const expected = new Set(expectedMigrations(folder).map((m) => m.hash));
  return database.withSession(async (session) => {
    const exists = await session.query<{ t: string | null }>(
      "SELECT to_regclass('slipway_migrations')::text AS t",
    );
    if (!exists[0]?.t) return 0;
    const rows = await session.query<{ hash: string }>('SELECT hash FROM slipway_migrations');
    return rows.filter((r) => expected.has(r.hash)).length;
  });
}
