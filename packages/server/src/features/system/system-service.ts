import { sql } from 'drizzle-orm';
import type { HealthResponse, ReadyResponse } from '@slipway/contracts';
import type { Database } from '../../platform/database/database.js';
import { appliedMigrationCount, expectedMigrations } from '../../platform/database/migrate.js';
import { VERSION } from '../../platform/version.js';
import type { InstanceStore } from './instance-store.js';

const PING_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class SystemService {
  private readonly startedAt = Date.now();
  private readonly migrationsExpected = expectedMigrations().length;

  constructor(
    private readonly database: Database,
    private readonly instances: InstanceStore,
  ) {}

  health(): HealthResponse {
    return {
      status: 'ok',
      version: VERSION,
      uptimeSeconds: Math.round((Date.now() - this.startedAt) / 1000),
    };
  }

  /** Ready when the database answers and every committed migration is applied. */
  async readiness(): Promise<ReadyResponse> {
    let reachable = false;
    let applied = 0;
    let info = null;
    try {
      await withTimeout(this.database.db.execute(sql`select 1`), PING_TIMEOUT_MS);
      reachable = true;
      applied = await withTimeout(appliedMigrationCount(this.database), PING_TIMEOUT_MS);
      info = await this.instances.get();
    } catch {
      // reported as not ready below
    }
    const ready = reachable && applied === this.migrationsExpected;
    return {
      status: ready ? 'ready' : 'not_ready',
      database: {
        driver: this.database.driver,
        reachable,
        migrationsApplied: applied,
        migrationsExpected: this.migrationsExpected,
      },
      instance: info,
    };
  }
}
