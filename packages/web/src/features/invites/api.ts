import type { z } from 'zod';
import type { InviteAcceptRequest, inviteLookupResponseSchema, LoginResponse } from '@slipway/contracts';
import { api } from '../../app/api';

export type InviteLookup = z.infer<typeof inviteLookupResponseSchema>;

/** Opening an invite link: what it is for (public), and accepting it (signs in). */
export const invitesPublicApi = api.injectEndpoints({
  endpoints: (build) => ({
    inviteLookup: build.query<InviteLookup, string>({
      query: (token) => ({ url: 'invites/lookup', params: { token } }),
      keepUnusedDataFor: 0,
    }),
    acceptInvite: build.mutation<LoginResponse, InviteAcceptRequest>({
      query: (body) => ({ url: 'invites/accept', method: 'POST', body }),
    }),
  }),
});

export const { useInviteLookupQuery, useAcceptInviteMutation } = invitesPublicApi;
