import { queryStates, type TableStates } from './DataTable';

type ListQuery = Parameters<typeof queryStates>[0];

/**
 * A list page's `DataTable` states from its query's answer: loading and load error (named `what`),
 * the total when the answer is a page (`{ rows, total }`), and what the page adds (`empty`, the
 * pager and sort from `useListParams().table` or `usePaging()`, skeleton rows).
 */
export function listStates(
  query: ListQuery,
  what: string,
  more: Omit<TableStates, 'loading' | 'error' | 'total'> = {},
): TableStates {
  const data = query.data as { total?: unknown } | undefined;
  const total = typeof data?.total === 'number' ? data.total : undefined;
  return { ...queryStates(query, what), ...(total === undefined ? {} : { total }), ...more };
}
