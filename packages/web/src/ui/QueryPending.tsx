import type { ApiError } from './api-error';
import { LoadError } from './LoadError';
import { Skeleton } from './Skeleton';

/** What `QueryPending` reads of a query (an RTK Query hook's answer fits). */
export interface PendingQuery {
  error?: ApiError;
  isLoading: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * What a page or panel shows while its query has no data: `lines` skeleton lines while it loads,
 * then the load error (named `what`) with a retry. Render it when the data is undefined.
 */
export function QueryPending({
  query,
  what,
  lines = 6,
}: {
  query: PendingQuery;
  what: string;
  lines?: number;
}) {
  if (query.isLoading) return <Skeleton lines={lines} />;
  return (
    <LoadError
      what={what}
      error={query.error}
      onRetry={() => void query.refetch()}
      retrying={query.isFetching}
    />
  );
}
