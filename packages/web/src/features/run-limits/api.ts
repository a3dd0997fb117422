import type { RunLimit } from '@slipway/contracts';
import { api } from '../../app/api';

/** Which limit: the current workspace's (`workspaces/<id>`) or a pipeline's (`pipelines/<id>`). */
export interface RunLimitTarget {
  kind: 'workspaces' | 'pipelines';
  id: string;
}

const at = ({ kind, id }: RunLimitTarget) => `${kind}/${encodeURIComponent(id)}/run-limit`;

/** Admission limits: runs in progress at once per workspace and per pipeline (null: the default). */
export const runLimitsApi = api.enhanceEndpoints({ addTagTypes: ['RunLimits'] }).injectEndpoints({
  endpoints: (build) => ({
    runLimit: build.query<RunLimit, RunLimitTarget>({
      query: at,
      providesTags: ['RunLimits'],
    }),
    setRunLimit: build.mutation<RunLimit, RunLimitTarget & { maxRunsInProgress: number | null }>({
      query: ({ maxRunsInProgress, ...target }) => ({
        url: at(target),
        method: 'PUT',
        body: { maxRunsInProgress },
      }),
      // a workspace's limit changes what its pipelines' limits allow
      invalidatesTags: ['RunLimits'],
    }),
  }),
});

export const { useRunLimitQuery, useSetRunLimitMutation } = runLimitsApi;
