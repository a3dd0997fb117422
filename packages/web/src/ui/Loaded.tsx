import type { ReactNode } from 'react';
import { QueryPending, type PendingQuery } from './QueryPending';

/** What `Loaded` needs of a query's result (an RTK Query hook's answer fits). */
export interface LoadingQuery<T> extends PendingQuery {
  data?: T;
}

/**
 * What a query loads, once it is there: until then `QueryPending` (a skeleton while loading, the
 * load error with a retry when there is no data), and then `children(data)`.
 */
export function Loaded<T>({
  query,
  lines,
  what,
  children,
}: {
  query: LoadingQuery<T>;
  /** How many skeleton lines stand in for it while it loads. */
  lines: number;
  /** What failed to load, for the error message. */
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isLoading || !query.data) return <QueryPending query={query} what={what} lines={lines} />;
  return children(query.data);
}
