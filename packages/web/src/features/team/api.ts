import {
  type Invite,
  type InviteCreateRequest,
  type Member,
  type OrganisationRole,
  type WorkspaceMember,
  type WorkspaceMemberAddRequest,
} from '@slipway/contracts';
import { api } from '../../app/api';
import { totalOf } from '../../app/page';
import type { Sort } from '../../ui/DataTable';
import { sortParams } from '../../ui/useListParams';

export interface MemberPage {
  members: Member[];
  total: number;
}

/** A page of a members list and, once a header was clicked, its order. */
export interface MemberListArgs {
  start: number;
  end: number;
  sort?: Sort | null;
}
const memberListParams = ({ start, end, sort }: MemberListArgs) => ({
  _start: start,
  _end: end,
  ...sortParams(sort),
});

export interface WorkspaceMemberPage {
  members: WorkspaceMember[];
  total: number;
}

/** Members of the organisation and their roles, and invites (`/api/members`, `/api/invites`). */
export const teamApi = api
  .enhanceEndpoints({ addTagTypes: ['Members', 'WorkspaceMembers', 'Invites', 'Permissions', 'Profile'] })
  .injectEndpoints({
    endpoints: (build) => ({
      members: build.query<MemberPage, MemberListArgs>({
        query: (args) => ({ url: 'members', params: memberListParams(args) }),
        transformResponse: (members: Member[], meta) => ({ members, total: totalOf(meta, members.length) }),
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
        invalidatesTags: ['Members', 'WorkspaceMembers', 'Permissions', 'Profile'],
      }),
      removeFromWorkspace: build.mutation<void, { userId: string; workspaceId: string }>({
        query: ({ userId, workspaceId }) => ({
          url: `members/${encodeURIComponent(userId)}/workspaces/${encodeURIComponent(workspaceId)}`,
          method: 'DELETE',
        }),
        invalidatesTags: ['Members', 'WorkspaceMembers', 'Permissions', 'Profile'],
      }),
      removeMember: build.mutation<void, string>({
        query: (userId) => ({ url: `members/${encodeURIComponent(userId)}`, method: 'DELETE' }),
        invalidatesTags: ['Members', 'WorkspaceMembers'],
      }),
      // The workspace named by x-workspace-id: the argument keys the cache per workspace.
      workspaceMembers: build.query<WorkspaceMemberPage, MemberListArgs & { workspaceId: string }>({
        query: (args) => ({ url: 'workspace/members', params: memberListParams(args) }),
        transformResponse: (members: WorkspaceMember[], meta) => ({
          members,
          total: totalOf(meta, members.length),
        }),
        providesTags: ['WorkspaceMembers'],
      }),
      addWorkspaceMember: build.mutation<void, WorkspaceMemberAddRequest>({
        query: (body) => ({ url: 'workspace/members', method: 'POST', body }),
        invalidatesTags: ['Members', 'WorkspaceMembers'],
      }),
      changeWorkspaceMemberRole: build.mutation<void, { userId: string; role: string }>({
        query: ({ userId, role }) => ({
          url: `workspace/members/${encodeURIComponent(userId)}`,
          method: 'PUT',
          body: { role },
        }),
        invalidatesTags: ['Members', 'WorkspaceMembers', 'Permissions'],
      }),
      removeWorkspaceMember: build.mutation<void, string>({
        query: (userId) => ({ url: `workspace/members/${encodeURIComponent(userId)}`, method: 'DELETE' }),
        invalidatesTags: ['Members', 'WorkspaceMembers', 'Permissions'],
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
  useWorkspaceMembersQuery,
  useAddWorkspaceMemberMutation,
  useChangeWorkspaceMemberRoleMutation,
  useRemoveWorkspaceMemberMutation,
  useInvitesQuery,
  useCreateInviteMutation,
  useRevokeInviteMutation,
} = teamApi;
