import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import { pgliteWasmModule, type PgliteCompiler } from './pglite-module.js';

export type Schema = typeof schema;
export type AppDb = PgDatabase<PgQueryResultHKT, Schema>;

/** One dedicated connection: what migrations and advisory locks need. */
export interface SqlSession {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs one or more statements without parameters. */
  exec(sql: string): Promise<void>;
}

export interface Database {
  readonly driver: 'pglite' | 'postgres';
  readonly db: AppDb;
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  /**
   * One statement for a hot path: on PostgreSQL a named prepared statement, planned once per
   * connection instead of on every call.
   */
  prepared<T = Record<string, unknown>>(name: string, text: string, params: unknown[]): Promise<T[]>;
  /** PGlite only: the whole data directory as a tarball, for `loadDataDir` (test templates). */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… — use a PostgreSQL server through a pool. */
  databaseUrl?: string | undefined;
  /** Where PGlite keeps its files; `undefined` with `inMemory` keeps nothing. */
  dataDir: string;
  inMemory?: boolean;
  poolMax?: number;
  /** See pglite-module.ts; the first database a process opens decides for the process. */
  pgliteCompiler?: PgliteCompiler;
  /** PGlite in memory only: start from this `dumpDataDir()` tarball instead of an empty cluster. */
  loadDataDir?: Blob;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.poolMax ?? 10) : openPglite(options);
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5000 });
  // An idle client that errors (server restart) must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema }) as unknown as AppDb;
  return {
    driver: 'postgres',
    db,
    async prepared(name, text, params) {
      return (await pool.query({ name, text, values: params })).rows;
    },
    async withSession(fn) {
      const client = await pool.connect();
      try {
        return await fn({
          async query(sql, params) {
            return (await client.query(sql, params as unknown[])).rows;
          },
          async exec(sql) {
            await client.query(sql);
          },
        });
      } finally {
        client.release();
      }
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}

async function openPglite(options: DatabaseOptions): Promise<Database> {
  let lock: DataDirLock | undefined;
  let client: PGlite;
  const wasmModule = await pgliteWasmModule(options.pgliteCompiler ?? 'baseline');
  const tuning = wasmModule ? { wasmModule } : {};
  if (options.inMemory) {
    client = new PGlite({ ...tuning, ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}) });
  } else {
    mkdirSync(options.dataDir, { recursive: true });
    // PGlite is one process's database: a second process on the same files would corrupt them.
    lock = acquireDataDirLock(options.dataDir);
    client = new PGlite(path.join(options.dataDir, 'pgdata'), tuning);
  }
  try {
    await client.waitReady;
  } catch (err) {
    lock?.release();
    throw err;
  }
  const db = drizzlePglite(client, { schema }) as unknown as AppDb;
  // PGlite has a single connection; serialise sessions so a migration is never interleaved.
  let queue: Promise<unknown> = Promise.resolve();
  const session: SqlSession = {
    async query(sql, params) {
      return (await client.query(sql, params)).rows as never[];
    },
    async exec(sql) {
      await client.exec(sql);
    },
  };
  return {
    driver: 'pglite',
    db,
    async prepared(_name, text, params) {
      return (await client.query(text, params)).rows as never[];
    },
    withSession(fn) {
      const run = queue.then(() => fn(session));
      queue = run.catch(() => undefined);
      return run;
    },
    async dumpDataDir() {
      return (await client.dumpDataDir('none')) as Blob;
    },
    async close() {
      try {
        if (!client.closed) await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}
