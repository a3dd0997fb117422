import { useMemo, useState } from 'react';
import type { Sort } from './DataTable';

type SortValue = string | number | null | undefined;

function compare(a: SortValue, b: SortValue): number {
  // empty values last, whichever the direction
  if (a === null || a === undefined || a === '') return b === null || b === undefined || b === '' ? 0 : 1;
  if (b === null || b === undefined || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

/**
 * Sorting a list the page holds whole (one the server does not page): the rows in the order the
 * header asks for, and what DataTable takes for its sortable headers (`sort`, `onSortChange`).
 * `values` gives each sortable column's value (its `sortKey` → the row's value).
 */
export function useClientSort<T>(
  rows: T[] | undefined,
  values: Record<string, (row: T) => SortValue>,
  initial: Sort | null = null,
) {
  const [sort, setSort] = useState<Sort | null>(initial);
  const sorted = useMemo(() => {
    const value = sort ? values[sort.key] : undefined;
    if (!rows || !sort || !value) return rows;
    const sign = sort.order === 'desc' ? -1 : 1;
    return [...rows].sort((a, b) => {
      const [x, y] = [value(a), value(b)];
      const empty = (v: SortValue) => v === null || v === undefined || v === '';
      // empties stay last in both directions
      if (empty(x) || empty(y)) return compare(x, y);
      return sign * compare(x, y);
    });
    // `values` is a fresh object on each render: the rows and the sort decide
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rows, sort]);
  return { rows: sorted, table: { sort, onSortChange: setSort } };
}
