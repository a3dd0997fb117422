import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import {
  TOTAL_COUNT_HEADER,
  type Invite,
  type InviteCreateRequest,
  type Member,
  type OrganisationRole,
} from '@slipway/contracts';
import { api } from '../../app/api';

export interface MemberPage {
  members: Member[];
  total: number;
}

/** Members of the organisation and their roles, and invites (`/api/members`, `/api/invites`). */
export const teamApi = api
  .enhanceEndpoints({ addTagTypes: ['Members', 'Invites', 'Permissions', 'Profile'] })
  .injectEndpoints({
    endpoints: (build) => ({
      members: build.query<MemberPage, { start: number; end: number }>({
        query: ({ start, end }) => ({ url: 'members', params: { _start: start, _end: end } }),
        transformResponse: (members: Member[], meta) => ({
          members,
          total: Number(
            (meta as FetchBaseQueryMeta | undefined)?.response?.headers.get(TOTAL_COUNT_HEADER) ??
              members.length,
          ),
        }),
        providesTags: ['Members'],
      }),
      setOrganisationRole: build.mutation<void, { userId: string; organisationRole: OrganisationRole }>({
        query: ({ userId, organisationRole }) => ({
          url: `members/${encodeURIComponent(userId)}/role`,
          method: 'PUT',
          body: { organisationRole },
        }),
        invalidatesTags: ['Members', 'Permissions'],
      }),
      setWorkspaceRole: build.mutation<void, { userId: string; workspaceId: string; role: string }>({
        query: ({ userId, workspaceId, role }) => ({
          url: `members/${encodeURIComponent(userId)}/workspaces/${encodeURIComponent(workspaceId)}`,
          method: 'PUT',
          body: { role },
        }),
        invalidatesTags: ['Members', 'Permissions', 'Profile'],
      }),
      removeFromWorkspace: build.mutation<void, { userId: string; workspaceId: string }>({
        query: ({ userId, workspaceId }) => ({
          url: `members/${encodeURIComponent(userId)}/workspaces/${encodeURIComponent(workspaceId)}`,
          method: 'DELETE',
        }),
        invalidatesTags: ['Members', 'Permissions', 'Profile'],
      }),
      removeMember: build.mutation<void, string>({
        query: (userId) => ({ url: `members/${encodeURIComponent(userId)}`, method: 'DELETE' }),
        invalidatesTags: ['Members'],
      }),
      invites: build.query<Invite[], void>({
        query: () => 'invites',
        providesTags: ['Invites'],
      }),
      createInvite: build.mutation<Invite, InviteCreateRequest>({
        query: (body) => ({ url: 'invites', method: 'POST', body }),
        invalidatesTags: ['Invites'],
      }),
      revokeInvite: build.mutation<void, string>({
        query: (id) => ({ url: `invites/${encodeURIComponent(id)}`, method: 'DELETE' }),
        invalidatesTags: ['Invites'],
      }),
    }),
  });

export const {
  useMembersQuery,
  useSetOrganisationRoleMutation,
  useSetWorkspaceRoleMutation,
  useRemoveFromWorkspaceMutation,
  useRemoveMemberMutation,
  useInvitesQuery,
  useCreateInviteMutation,
  useRevokeInviteMutation,
} = teamApi;
