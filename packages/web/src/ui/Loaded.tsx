import type { ReactNode } from 'react';
import type { ApiError } from './api-error';
import { LoadError } from './LoadError';
import { Skeleton } from './Skeleton';

/** What `Loaded` needs of a query's result (an RTK Query hook's answer fits). */
export interface LoadingQuery<T> {
  data?: T;
  error?: ApiError;
  isLoading: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * What a query loads, once it is there: a skeleton while loading, the load error with a retry
 * when there is no data, and otherwise `children(data)`.
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
  return children(query.data);
}
