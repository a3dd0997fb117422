import { asc, desc, type SQL } from 'drizzle-orm';
import { TOTAL_COUNT_HEADER } from '@slipway/contracts';
import { InputError } from '../errors.js';

/** The part of a list query (`_start`, `_end`, `_order`) that picks the page. */
export interface PageQuery {
  _start: number;
  _end: number;
  _order: 'ASC' | 'DESC';
}

/** The rows a list query asks for: `ORDER BY order … OFFSET offset LIMIT limit`. */
export interface Page {
  order: SQL;
  offset: number;
  limit: number;
}

type Sortable = Parameters<typeof asc>[0];

/** The page of rows `_start` (inclusive) to `_end` (exclusive), sorted on `column` in `_order`. */
export function pageOf(query: PageQuery, column: Sortable): Page {
  return {
    order: query._order === 'DESC' ? desc(column) : asc(column),
    offset: query._start,
    limit: query._end - query._start,
  };
}

/** The total of a `select({ n: count() })` read. */
export function totalOf(counted: readonly { n: number | string }[]): number {
  return Number(counted[0]?.n ?? 0);
}

/** The `_sort` of a list query when it is one of `sorts`; any other answers 400 naming the choices. */
export function sortOf<K extends string>(sort: string, sorts: Record<K, unknown>): K {
  // Own keys only: `constructor` or `toString` is not a column.
  if (!Object.hasOwn(sorts, sort)) {
    const message = `_sort must be one of ${Object.keys(sorts).join(', ')}`;
    throw new InputError(message, [{ path: 'querystring._sort', message }]);
  }
  return sort as K;
}

/**
 * The column a list sorts on: `sorts[sort]` when `sort` is one of its own keys, else `fallback`
 * (a `_sort` the contract lets through but the store does not know, or `constructor`).
 */
export function sortColumn<T>(sorts: Readonly<Record<string, T>>, sort: string | undefined, fallback: T): T {
  return sort !== undefined && Object.hasOwn(sorts, sort) ? sorts[sort]! : fallback;
}

/** The rows of a list answer, with their total (all pages) in X-Total-Count. */
export function withTotalCount<T>(
  reply: { header(name: string, value: string): unknown },
  rows: T[],
  total: number = rows.length,
): T[] {
  reply.header(TOTAL_COUNT_HEADER, String(total));
  return rows;
}

/** An (I)LIKE pattern that finds `text` anywhere, its `%`, `_` and `\` taken literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
