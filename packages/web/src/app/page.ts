import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { TOTAL_COUNT_HEADER } from '@slipway/contracts';

/** One page of a list, with the count of all its rows. */
export interface Page<T> {
  rows: T[];
  total: number;
}

/** The total a list answer announces in its count header, or `fallback` when it has none. */
export function totalOf(meta: unknown, fallback: number): number {
  const header = (meta as FetchBaseQueryMeta | undefined)?.response?.headers.get(TOTAL_COUNT_HEADER);
  return header ? Number(header) : fallback;
}
