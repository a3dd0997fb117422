import { availableParallelism } from 'node:os';

export type Release = () => void;

interface Waiter {
  tenant: string;
  grant: (release: Release) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/** The default bound on tasks running at once on this host: its CPU count. */
export function defaultConcurrency(): number {
  return Math.max(1, availableParallelism());
}

/**
 * A tenant's fair share of `limit` slots when `tenants` tenants have work (running or queued):
 * `max(1, floor(limit / tenants))`. The step spawner helper applies the same rule (kept in step).
 */
export function fairShare(limit: number, tenants: number): number {
  return Math.max(1, Math.floor(limit / Math.max(1, tenants)));
}

/**
 * A counting semaphore shared fairly by tenants (organisations): a waiter of tenant T is granted
 * a slot when fewer than `limit` are held, or when T holds fewer than its fair share
 * (`fairShare(limit, tenants with work)`), so a tenant that arrives while another holds every
 * slot borrows one at once (at most `limit` + the number of tenants are held). Among the waiters
 * that may go, tenants take turns (round-robin); within a tenant, first come first served. With
 * one tenant (or none given) it is a plain FIFO semaphore of `limit`. A waiter whose signal
 * aborts leaves the queue and rejects with the signal's reason. The engine admits tasks through
 * one, and the step spawner bounds the steps it forks in process with another.
 */
export class Semaphore {
  readonly limit: number;
  private held = 0;
  /** Slots held per tenant (tenants holding none are absent). */
  private readonly heldBy = new Map<string, number>();
  /** Waiters per tenant, FIFO; the map's order is the tenants' turn order. */
  private readonly queues = new Map<string, Waiter[]>();
  private queued = 0;

  constructor(limit: number = defaultConcurrency()) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`concurrency limit must be >= 1, got ${limit}`);
    this.limit = limit;
  }

  get inFlight(): number {
    return this.held;
  }

  get waiting(): number {
    return this.queued;
  }

  /** Slots held by one tenant (for tests and diagnostics). */
  heldByTenant(tenant = ''): number {
    return this.heldBy.get(tenant) ?? 0;
  }

  acquire(signal?: AbortSignal, tenant = ''): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // first come first served within a tenant: none of its waiters may be passed
    if (!this.queues.has(tenant) && this.mayStart(tenant, this.tenantsWith(tenant)))
      return Promise.resolve(this.take(tenant));
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        tenant,
        grant: resolve,
        reject,
        signal,
        onAbort: () => {
          const queue = this.queues.get(tenant);
          const index = queue?.indexOf(waiter) ?? -1;
          if (queue && index >= 0) {
            queue.splice(index, 1);
            this.queued -= 1;
            if (queue.length === 0) this.queues.delete(tenant);
            // one tenant fewer with work can raise the others' share
            this.pump();
          }
          reject(signal?.reason);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      const queue = this.queues.get(tenant);
      if (queue) queue.push(waiter);
      else this.queues.set(tenant, [waiter]);
      this.queued += 1;
    });
  }

  /** Runs `fn` holding one slot; the slot is released however `fn` ends. */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal, tenant?: string): Promise<T> {
    const release = await this.acquire(signal, tenant);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** How many tenants have work, counting `extra` (one about to ask) too. */
  private tenantsWith(extra?: string): number {
    let n = this.heldBy.size;
    for (const tenant of this.queues.keys()) if (!this.heldBy.has(tenant)) n += 1;
    if (extra !== undefined && !this.heldBy.has(extra) && !this.queues.has(extra)) n += 1;
    return n;
  }

  private mayStart(tenant: string, tenants: number): boolean {
    return this.held < this.limit || (this.heldBy.get(tenant) ?? 0) < fairShare(this.limit, tenants);
  }

  private take(tenant: string): Release {
    this.held += 1;
    this.heldBy.set(tenant, (this.heldBy.get(tenant) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= 1;
      const left = (this.heldBy.get(tenant) ?? 1) - 1;
      if (left > 0) this.heldBy.set(tenant, left);
      else this.heldBy.delete(tenant);
      this.pump();
    };
  }

  /** Grants slots to the waiters that may go, tenants in turn, until none may. */
  private pump(): void {
    for (;;) {
      const tenants = this.tenantsWith();
      let next: string | undefined;
      for (const tenant of this.queues.keys())
        if (this.mayStart(tenant, tenants)) {
          next = tenant;
          break;
        }
      if (next === undefined) return;
      const queue = this.queues.get(next)!;
      const waiter = queue.shift()!;
      this.queued -= 1;
      // the tenant served goes to the back of the turn order
      this.queues.delete(next);
      if (queue.length > 0) this.queues.set(next, queue);
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.grant(this.take(next));
    }
  }
}
