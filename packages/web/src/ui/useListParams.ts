import { useState } from 'react';
import type { Sort } from './DataTable';
import { PAGE_SIZES, usePaging, type Paging } from './ListPager';

export interface ListParams {
  paging: Paging;
  sort: Sort | null;
  /** Sorts by another column (or the other way) and goes back to the first page. */
  setSort: (sort: Sort) => void;
  /** The list query's `_start`, `_end` and, when sorted, `_sort` (and `_order=DESC` for descending). */
  params: Record<string, string>;
  /** What DataTable takes of them: its pager and its sortable headers. */
  table: { paging: Paging; sort: Sort | null; onSortChange: (sort: Sort) => void };
}

/** A list query's `_sort` and, for descending, `_order=DESC` (nothing while unsorted). */
export function sortParams(sort: Sort | null | undefined): Record<string, string> {
  if (!sort) return {};
  return sort.order === 'desc' ? { _sort: sort.key, _order: 'DESC' } : { _sort: sort.key };
}

/**
 * A server-side list's page and sort, as `DataTable` takes them (`paging`, `sort`, `onSortChange`)
 * and as the list query asks for them (`params`). Ascending is the server's default order, so
 * `_order` is only sent for descending.
 */
export function useListParams({
  sizes = PAGE_SIZES,
  sort: initial = null,
}: { sizes?: number[]; sort?: Sort | null } = {}): ListParams {
  const paging = usePaging(sizes);
  const [sort, setSortState] = useState<Sort | null>(initial);
  const params: Record<string, string> = { ...paging.range, ...sortParams(sort) };
  const setSort = (next: Sort) => {
    setSortState(next);
    paging.setPage(0);
  };
  return { paging, sort, setSort, params, table: { paging, sort, onSortChange: setSort } };
}
