import type { CallerPermissions } from '@slipway/contracts';
import { api } from '../../app/api';

/**
 * What the caller may do (`GET /api/access/permissions`). The argument is the workspace the
 * x-workspace-id header names, so the answer is cached per workspace and asked again when the
 * workspace changes.
 */
export const accessApi = api.enhanceEndpoints({ addTagTypes: ['Permissions'] }).injectEndpoints({
  endpoints: (build) => ({
    permissions: build.query<CallerPermissions, string | null>({
      query: () => 'access/permissions',
      providesTags: ['Permissions'],
    }),
  }),
});

export const { usePermissionsQuery } = accessApi;
