/** How long a caller's session and standing are reused within one process. */
export const STANDING_CACHE_TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

/**
 * A short-lived cache of what the access check reads for every request (a session with the
 * caller's roles, a service account with its grants). Concurrent requests of one caller share one
 * read; an entry lives `ttlMs` at most, and the whole cache is dropped whenever this process
 * handles a mutating API request, so a logout, a role change or a removal counts at once here,
 * and within `ttlMs` on other replicas.
 */
export class StandingCache {
  private readonly entries = new Map<string, { value: Promise<unknown>; until: number }>();

  constructor(
    private readonly ttlMs = STANDING_CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get<V>(key: string, load: () => Promise<V>): Promise<V> {
    const t = this.now();
    const found = this.entries.get(key);
    if (found && found.until > t) return found.value as Promise<V>;
    if (found) this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.evictExpired(t);
    const value = load();
    this.entries.set(key, { value, until: t + this.ttlMs });
    // A failed read is not kept. (A read that a clear() overtakes is gone with the rest.)
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  /** Drops everything: something that decides access may have changed. */
  clear() {
    this.entries.clear();
  }

  get size() {
    return this.entries.size;
  }

  private evictExpired(t: number) {
    for (const [key, entry] of this.entries) if (entry.until <= t) this.entries.delete(key);
    // still full: the oldest entries go
    for (const key of this.entries.keys()) {
      if (this.entries.size < MAX_ENTRIES) break;
      this.entries.delete(key);
    }
  }
}
