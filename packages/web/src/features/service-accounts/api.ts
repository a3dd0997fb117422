import type { z } from 'zod';
import type {
  ServiceAccount,
  ServiceAccountCreateRequest,
  serviceAccountCreatedSchema,
} from '@slipway/contracts';
import { api } from '../../app/api';
import type { WorkspaceGrant } from './WorkspaceGrantsEditor';

export type ServiceAccountCreated = z.infer<typeof serviceAccountCreatedSchema>;

/** Service accounts (`/api/service-accounts`); the token comes back from create only. */
export const serviceAccountsApi = api.enhanceEndpoints({ addTagTypes: ['ServiceAccounts'] }).injectEndpoints({
  endpoints: (build) => ({
    serviceAccounts: build.query<ServiceAccount[], void>({
      query: () => 'service-accounts',
      providesTags: ['ServiceAccounts'],
    }),
    createServiceAccount: build.mutation<ServiceAccountCreated, ServiceAccountCreateRequest>({
      query: (body) => ({ url: 'service-accounts', method: 'POST', body }),
      invalidatesTags: ['ServiceAccounts'],
    }),
    setServiceAccountWorkspaces: build.mutation<ServiceAccount, { id: string; workspaces: WorkspaceGrant[] }>(
      {
        query: ({ id, workspaces }) => ({
          url: `service-accounts/${encodeURIComponent(id)}/workspaces`,
          method: 'PUT',
          body: { workspaces },
        }),
        invalidatesTags: ['ServiceAccounts'],
      },
    ),
    revokeServiceAccount: build.mutation<void, string>({
      query: (id) => ({ url: `service-accounts/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['ServiceAccounts'],
    }),
  }),
});

export const {
  useServiceAccountsQuery,
  useCreateServiceAccountMutation,
  useSetServiceAccountWorkspacesMutation,
  useRevokeServiceAccountMutation,
} = serviceAccountsApi;

export type ServiceAccountStatus = 'active' | 'expired' | 'revoked';

/** Revoked, expired (its expiry passed), or active. */
export function serviceAccountStatus(
  sa: Pick<ServiceAccount, 'revokedAt' | 'expiresAt'>,
  now = Date.now(),
): ServiceAccountStatus {
  if (sa.revokedAt) return 'revoked';
  return Date.parse(sa.expiresAt) <= now ? 'expired' : 'active';
}
