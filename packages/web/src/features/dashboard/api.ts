import type { Dashboard } from '@slipway/contracts';
import { api } from '../../app/api';

/** `GET /api/dashboard`: the workspace's getting-started checklist and status. */
export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    dashboard: build.query<Dashboard, void>({ query: () => 'dashboard' }),
  }),
});

export const { useDashboardQuery } = dashboardApi;
