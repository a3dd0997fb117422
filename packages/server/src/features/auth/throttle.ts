import { sql } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { AppError } from '../../platform/errors.js';

export class TooManyAttemptsError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, `Too many attempts; try again in ${retryAfterSeconds} seconds`);
  }
}

export interface ThrottlePolicy {
  /** failures allowed before delays start */
  freeFailures: number;
  /** the first delay; each further failure doubles it */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const PER_ACCOUNT: ThrottlePolicy = { freeFailures: 5, baseDelayMs: 2_000, maxDelayMs: 15 * 60_000 };
/** Codes already die after 5 wrong tries; the account delay only stops cycling through new codes. */
export const PER_ACCOUNT_VERIFY: ThrottlePolicy = {
  freeFailures: 10,
  baseDelayMs: 2_000,
  maxDelayMs: 15 * 60_000,
};
export const PER_IP: ThrottlePolicy = { freeFailures: 20, baseDelayMs: 2_000, maxDelayMs: 15 * 60_000 };

export function delayAfter(failures: number, policy: ThrottlePolicy): number {
  if (failures < policy.freeFailures) return 0;
  return Math.min(policy.baseDelayMs * 2 ** (failures - policy.freeFailures), policy.maxDelayMs);
}

/** Growing delays per key (an IP, an account) after failed sign-ins, verifications and resets. */
export class Throttle {
  constructor(private readonly db: AppDb) {}

  /** Throws TooManyAttemptsError while any of the keys is blocked. */
  async check(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const res = await this.db.execute(
      sql`SELECT max(blocked_until) AS until FROM auth_throttle WHERE key IN ${keys} AND blocked_until > now()`,
    );
    const row = ((res as { rows?: Array<{ until: unknown }> }).rows ??
      (res as unknown as Array<{ until: unknown }>))[0];
    if (row?.until) {
      const ms = new Date(String(row.until)).getTime() - Date.now();
      throw new TooManyAttemptsError(Math.max(1, Math.ceil(ms / 1000)));
    }
  }

  async fail(entries: Array<[key: string, policy: ThrottlePolicy]>): Promise<void> {
    for (const [key, policy] of entries) {
      const res = await this.db.execute(sql`
        INSERT INTO auth_throttle (key, failures, updated_at) VALUES (${key}, 1, now())
        ON CONFLICT (key) DO UPDATE SET failures = auth_throttle.failures + 1, updated_at = now()
        RETURNING failures`);
      const failures = Number(
        ((res as { rows?: Array<{ failures: unknown }> }).rows ??
          (res as unknown as Array<{ failures: unknown }>))[0]?.failures ?? 1,
      );
      const delay = delayAfter(failures, policy);
      if (delay > 0) {
        await this.db.execute(
          sql`UPDATE auth_throttle SET blocked_until = now() + (${delay} || ' milliseconds')::interval WHERE key = ${key}`,
        );
      }
    }
  }

  async succeed(keys: string[]): Promise<void> {
    if (keys.length) await this.db.execute(sql`DELETE FROM auth_throttle WHERE key IN ${keys}`);
  }
}
