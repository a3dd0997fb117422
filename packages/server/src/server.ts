import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from './app.js';
import { SqlInstanceStore } from './features/system/instance-store.js';
import type { ServerConfig } from './platform/config.js';
import { openDatabase, type Database } from './platform/database/database.js';
import { migrate } from './platform/database/migrate.js';

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  url: string;
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

/** Opens the database, applies migrations, records the start and listens. */
export async function startServer(
  config: ServerConfig,
  logger?: AppOptions['logger'],
): Promise<RunningServer> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    inMemory: config.inMemoryDatabase ?? false,
    poolMax: config.databasePoolMax,
    pgliteCompiler: config.pgliteCompiler,
  });
  let app: FastifyInstance | undefined;
  try {
    const migrations = await migrate(database);
    const info = await new SqlInstanceStore(database.db).recordStart();
    app = await buildApp({ config, database, logger });
    app.log.info(
      {
        driver: database.driver,
        dataDir: database.driver === 'pglite' ? config.dataDir : undefined,
        migrationsApplied: migrations.applied.length,
        migrationsTotal: migrations.total,
        instance: info.id,
        starts: info.starts,
      },
      'database ready',
    );
    const address = await app.listen({ port: config.port, host: config.host });
    const url = address.replace('[::1]', '127.0.0.1');
    app.log.info(`Slipway is serving at ${url}`);
    let closing: Promise<void> | undefined;
    const ready = app;
    return {
      app: ready,
      database,
      url,
      close() {
        closing ??= (async () => {
          try {
            await ready.close();
          } finally {
            await database.close();
          }
        })();
        return closing;
      },
    };
  } catch (err) {
    await app?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw err;
  }
}
