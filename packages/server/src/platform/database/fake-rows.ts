import type { PageQuery } from './paging.js';

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
