import type { LogSearchMatch } from '@slipway/contracts';
import { api } from '../../../app/api';
import { totalOf } from '../../../app/page';

export interface LogSearchArgs {
  id: string;
  q: string;
  task?: string;
  step?: string;
}

/** How many matches one search shows. */
export const SEARCH_PAGE = 100;

/** Search within a run's log (`/api/pipelineruns/:id/logs/search`). */
export const logsApi = api.injectEndpoints({
  endpoints: (build) => ({
    searchRunLogs: build.query<{ matches: LogSearchMatch[]; total: number }, LogSearchArgs>({
      query: ({ id, q, task, step }) => ({
        url: `pipelineruns/${encodeURIComponent(id)}/logs/search`,
        params: {
          q,
          ...(task ? { task } : {}),
          ...(step ? { step } : {}),
          _start: '0',
          _end: String(SEARCH_PAGE),
        },
      }),
      transformResponse: (matches: LogSearchMatch[], meta) => ({
        matches,
        total: totalOf(meta, matches.length),
      }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useLazySearchRunLogsQuery } = logsApi;
