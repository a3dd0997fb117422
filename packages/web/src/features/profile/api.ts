import type { z } from 'zod';
import type {
  changePasswordRequestSchema,
  ProfileResponse,
  profileUpdateRequestSchema,
} from '@slipway/contracts';
import { api } from '../../app/api';

export type ProfileUpdateRequest = z.infer<typeof profileUpdateRequestSchema>;
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/** The signed-in user (`/api/profile`): name, e-mail, organisations and workspaces. */
export const profileApi = api.enhanceEndpoints({ addTagTypes: ['Profile'] }).injectEndpoints({
  endpoints: (build) => ({
    profile: build.query<ProfileResponse, void>({
      query: () => 'profile',
      providesTags: ['Profile'],
    }),
    /** The profile of a token just received, before it is in the store (sign-in). */
    profileForToken: build.mutation<ProfileResponse, string>({
      query: (token) => ({ url: 'profile', headers: { authorization: token } }),
    }),
    updateProfile: build.mutation<unknown, ProfileUpdateRequest>({
      query: (body) => ({ url: 'profile', method: 'PUT', body }),
      invalidatesTags: ['Profile'],
    }),
    changePassword: build.mutation<void, ChangePasswordRequest>({
      query: (body) => ({ url: 'profile/password', method: 'POST', body }),
    }),
  }),
});

export const { useProfileQuery, useUpdateProfileMutation, useChangePasswordMutation } = profileApi;

/** The user's initials for the avatar: first letters of first and last name, else of the e-mail. */
export function initials(profile: Pick<ProfileResponse, 'firstName' | 'lastName' | 'email'>): string {
  const fromName = `${profile.firstName.trim().charAt(0)}${profile.lastName.trim().charAt(0)}`;
  return (fromName || profile.email.charAt(0)).toUpperCase();
}

/** The workspaces of the organisation the user is in (all of them if none matches). */
export function currentWorkspaces(profile: Pick<ProfileResponse, 'organisationId' | 'workspaces'>) {
  const own = profile.workspaces.filter((w) => w.organisationId === profile.organisationId);
  return own.length > 0 ? own : profile.workspaces;
}
