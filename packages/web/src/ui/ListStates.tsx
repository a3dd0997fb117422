import type { ReactNode } from 'react';
import { Loaded, type LoadingQuery } from './Loaded';

/** What `ListStates` needs of a list query's result (an RTK Query hook's answer fits). */
export type ListQuery<T> = LoadingQuery<T>;

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
  return (
    <Loaded query={query} lines={lines} what={what}>
      {(data) => (isEmptyList(data) ? empty : children(data))}
    </Loaded>
  );
}
