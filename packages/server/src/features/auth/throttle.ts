import { sql } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { TooManyRequestsError } from '../../platform/errors.js';

export class TooManyAttemptsError extends TooManyRequestsError {
  constructor(retryAfterSeconds: number) {
    super(`Too many attempts; try again in ${retryAfterSeconds} seconds`, retryAfterSeconds);
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

/**
 * Failures on one account from any address never refuse anyone: they only slow every attempt on
 * the account down (at most a few seconds), so many addresses cannot lock a person out, yet a
 * spread-out guess costs time. Failures older than an hour no longer count.
 */
export const ACCOUNT_SLOWDOWN: ThrottlePolicy = { freeFailures: 5, baseDelayMs: 250, maxDelayMs: 4_000 };
const SLOWDOWN_WINDOW = '1 hour';

/**
 * The keys of one kind of attempt (`login`, `verify`, `ldap`) on one account from one address:
 * `<scope>:ipacct:<ip>:<account>` and `<scope>:ip:<ip>` decide refusals, `<scope>:acct:<account>`
 * only slows down (GitLab / Devise style).
 */
export interface AttemptKeys {
  ip: string;
  ipAccount: string;
  account: string;
}

export function attemptKeys(scope: string, ip: string, account: string): AttemptKeys {
  return {
    ip: `${scope}:ip:${ip}`,
    ipAccount: `${scope}:ipacct:${ip}:${account}`,
    account: `${scope}:acct:${account}`,
  };
}

export function delayAfter(failures: number, policy: ThrottlePolicy): number {
  if (failures < policy.freeFailures) return 0;
  return Math.min(policy.baseDelayMs * 2 ** (failures - policy.freeFailures), policy.maxDelayMs);
}

/** Growing delays per key (an IP, an account) after failed sign-ins, verifications and resets. */
export class Throttle {
  constructor(
    private readonly db: AppDb,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /**
   * Before an attempt: refused (429) while this address, or this address on this account, is
   * blocked; otherwise slowed down by the account's recent failures from anywhere.
   */
  async before(keys: AttemptKeys): Promise<void> {
    await this.check([keys.ipAccount, keys.ip]);
    const delay = await this.slowdown(keys.account);
    if (delay > 0) await this.sleep(delay);
  }

  /** A failed attempt counts for the address on the account, the address, and the account. */
  async failed(keys: AttemptKeys, accountPolicy: ThrottlePolicy): Promise<void> {
    await this.fail([
      [keys.ipAccount, accountPolicy],
      [keys.ip, PER_IP],
      [keys.account, ACCOUNT_SLOWDOWN],
    ]);
  }

  /** A success clears the address's counters (on this account and overall), not the account's. */
  async succeeded(keys: AttemptKeys): Promise<void> {
    await this.succeed([keys.ipAccount, keys.ip]);
  }

  /** How long an attempt on this account waits, from its failures within the last hour. */
  async slowdown(accountKey: string): Promise<number> {
    const res = await this.db.execute(
      sql`SELECT failures FROM auth_throttle WHERE key = ${accountKey} AND updated_at > now() - ${SLOWDOWN_WINDOW}::interval`,
    );
    const row = ((res as { rows?: Array<{ failures: unknown }> }).rows ??
      (res as unknown as Array<{ failures: unknown }>))[0];
    return row ? delayAfter(Number(row.failures), ACCOUNT_SLOWDOWN) : 0;
  }

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
