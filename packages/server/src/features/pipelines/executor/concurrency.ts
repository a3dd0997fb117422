import { availableParallelism } from 'node:os';

export type Release = () => void;

interface Waiter {
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
 * A counting semaphore with a FIFO queue: at most `limit` holders at once; waiters are served in
 * the order they asked; a waiter whose signal aborts leaves the queue and rejects with the
 * signal's reason. The scheduler wraps each task of the local executor in `run`.
 */
export class Semaphore {
  readonly limit: number;
  private held = 0;
  private readonly queue: Waiter[] = [];

  constructor(limit: number = defaultConcurrency()) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`concurrency limit must be >= 1, got ${limit}`);
    this.limit = limit;
  }

  get inFlight(): number {
    return this.held;
  }

  get waiting(): number {
    return this.queue.length;
  }

  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.held < this.limit) {
      this.held += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        grant: resolve,
        reject,
        signal,
        onAbort: () => {
          const index = this.queue.indexOf(waiter);
          if (index >= 0) this.queue.splice(index, 1);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  /** Runs `fn` holding one slot; the slot is released however `fn` ends. */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) {
        next.signal?.removeEventListener('abort', next.onAbort);
        next.grant(this.releaser()); // the slot passes straight to the next waiter
      } else {
        this.held -= 1;
      }
    };
  }
}
