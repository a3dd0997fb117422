import type { PageQuery } from './paging.js';
import { uniqueViolation } from './unique-violation.js';

/**
 * Helpers for the in-memory fakes beside the stores (decision 030): they answer as the SQL
 * does, so a service tested over a fake behaves as it does over PostgreSQL.
 */

/** PostgreSQL's order: NULL after every value ascending; dates by time; text by code point (C collation). */
export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1;
  if (b === null || b === undefined) return -1;
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `rows` sorted on `key` in `order`, ties broken by `tieBreak` ascending (as `ORDER BY key, id`). */
export function sortRows<T>(
  rows: readonly T[],
  key: (row: T) => unknown,
  order: 'ASC' | 'DESC' = 'ASC',
  tieBreak?: (row: T) => unknown,
): T[] {
  const sign = order === 'DESC' ? -1 : 1;
  return [...rows].sort(
    (a, b) =>
      sign * compareValues(key(a), key(b)) || (tieBreak ? compareValues(tieBreak(a), tieBreak(b)) : 0),
  );
}

/** The page a list query asks for (`ORDER BY key, id OFFSET _start LIMIT _end - _start`), with the total. */
export function pageRows<T>(
  rows: readonly T[],
  query: PageQuery,
  key: (row: T) => unknown,
  tieBreak?: (row: T) => unknown,
): { rows: T[]; total: number } {
  const sorted = sortRows(rows, key, query._order, tieBreak);
  return { rows: sorted.slice(query._start, Math.max(query._start, query._end)), total: rows.length };
}

/** `text ILIKE likePattern(part)`: `part` anywhere in `text`, ignoring case, taken literally. */
export function containsIgnoringCase(text: string, part: string): boolean {
  return text.toLowerCase().includes(part.toLowerCase());
}

/** A copy of a stored row, so a caller that changes what it was given does not change the store. */
export function copyOf<T>(row: T): T {
  return structuredClone(row);
}

/** A row whose name is unique in its scope (its workspace, or its organisation). */
export interface NamedRow {
  id: string;
  name: string;
  updatedAt?: Date;
}

/**
 * The in-memory table behind a fake store of scoped, named rows: reads scoped to one workspace
 * (or to what `scopeOf` answers, e.g. the organisation); a unique violation named
 * `${table}_pkey` or `uniqueIndex` where the SQL refuses a row; the list query's page, sort (one
 * of `sortable`, else `defaultSort`), name filter (plus `where`) and total.
 */
export class FakeNamedTable<R extends NamedRow> {
  private readonly rows = new Map<string, R>();

  constructor(
    private readonly table: string,
    private readonly uniqueIndex: string,
    private readonly scopeOf: (row: R) => string = (row) => (row as R & { workspaceId: string }).workspaceId,
  ) {}

  all(scope: string): R[] {
    return [...this.rows.values()].filter((r) => this.scopeOf(r) === scope).map(copyOf);
  }

  get(scope: string, id: string): R | null {
    const row = this.rows.get(id);
    return row && this.scopeOf(row) === scope ? copyOf(row) : null;
  }

  findByName(scope: string, name: string): R | null {
    const row = [...this.rows.values()].find((r) => this.scopeOf(r) === scope && r.name === name);
    return row ? copyOf(row) : null;
  }

  nameTaken(scope: string, name: string, exceptId?: string): boolean {
    return [...this.rows.values()].some(
      (r) => this.scopeOf(r) === scope && r.name === name && r.id !== exceptId,
    );
  }

  insert(row: R): void {
    if (this.rows.has(row.id)) throw uniqueViolation(`${this.table}_pkey`);
    if (this.nameTaken(this.scopeOf(row), row.name)) throw uniqueViolation(this.uniqueIndex);
    this.rows.set(row.id, copyOf(row));
  }

  /** Changes a row by id (not scoped, as the SQL's `WHERE id = …`), stamping updatedAt when it has one. */
  update(id: string, patch: Partial<R>): void {
    const row = this.rows.get(id);
    if (!row) return;
    if (patch.name !== undefined && this.nameTaken(this.scopeOf(row), patch.name, id))
      throw uniqueViolation(this.uniqueIndex);
    this.rows.set(id, { ...row, ...copyOf(patch), ...('updatedAt' in row ? { updatedAt: new Date() } : {}) });
  }

  /** Sets columns of a row by id as they are given, updatedAt untouched (the SQL's own `SET` of a few columns). */
  write(id: string, patch: Partial<R>): void {
    const row = this.rows.get(id);
    if (row) this.rows.set(id, { ...row, ...copyOf(patch) });
  }

  delete(id: string): void {
    this.rows.delete(id);
  }

  /** Every workspace's rows: only for what the server does across workspaces (a scheduler's claim). */
  everywhere(): R[] {
    return [...this.rows.values()].map(copyOf);
  }

  page(
    scope: string,
    query: PageQuery & { _sort: string; name?: string },
    sortable: readonly (keyof R & string)[],
    defaultSort: keyof R & string,
    where: (row: R) => boolean = () => true,
  ): { rows: R[]; total: number } {
    const sort = (sortable as readonly string[]).includes(query._sort)
      ? (query._sort as keyof R)
      : defaultSort;
    const matching = this.all(scope).filter(
      (r) => (!query.name || containsIgnoringCase(r.name, query.name)) && where(r),
    );
    return pageRows(
      matching,
      query,
      (r) => r[sort],
      (r) => r.id,
    );
  }
}

/** An inserted row with its columns' defaults, as `INSERT` fills them: a value left undefined takes the default. */
export function withDefaults<T extends object>(defaults: Partial<T>, row: Partial<T>): T {
  const given = Object.fromEntries(Object.entries(row).filter(([, v]) => v !== undefined));
  return { ...defaults, ...given } as T;
}
