import type { ReactNode } from 'react';
import type { ApiError } from './api-error';
import { LoadError } from './LoadError';
import { Skeleton } from './Skeleton';

/** What `ListStates` needs of a list query's result (an RTK Query hook's answer fits). */
export interface ListQuery<T> {
  data?: T;
  error?: ApiError;
  isLoading: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

/** A page of rows (`total` counts them all) or a plain array. */
type List = { total: number } | readonly unknown[];

const isEmptyList = (data: List) => ('total' in data ? data.total : data.length) === 0;

/**
 * The states of a loaded list: a skeleton while loading, the load error with a retry, the empty
 * state when there is nothing, and otherwise the list itself.
 */
export function ListStates<T extends List>({
  query,
  lines,
  what,
  empty,
  children,
}: {
  query: ListQuery<T>;
  /** How many skeleton lines stand in for the list while it loads. */
  lines: number;
  /** What failed to load, for the error message. */
  what: string;
  empty: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isLoading) return <Skeleton lines={lines} />;
  if (!query.data)
    return (
      <LoadError
        what={what}
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  if (isEmptyList(query.data)) return empty;
  return children(query.data);
}
