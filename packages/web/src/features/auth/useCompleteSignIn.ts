import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { LoginResponse, ProfileResponse } from '@slipway/contracts';
import { errorMessage, errorStatus } from '../../ui/api-error';
import { useAppDispatch } from '../../app/hooks';
import { currentWorkspaces, profileApi } from '../profile/api';
import { signedIn } from './auth-slice';
import { safeNext } from './next-path';

/**
 * Finishes any sign-in (password, code, single sign-on): reads the profile with the new token,
 * stores the session (the first workspace when the server named none), then opens `next` or the
 * dashboard. Answers null, or the message to show when the token turned out to be no good.
 */
export function useCompleteSignIn() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [fetchProfile] = profileApi.useProfileForTokenMutation();
  return useCallback(
    async (
      session: LoginResponse,
      { email, next }: { email?: string; next?: string | null } = {},
    ): Promise<string | null> => {
      let profile: ProfileResponse | undefined;
      const answer = await fetchProfile(session.token);
      if (!answer.error) profile = answer.data;
      // A token the API refuses is no session; anything else still signs in (the layout asks again).
      else if (errorStatus(answer.error) === 401) return errorMessage(answer.error);
      const projectId =
        session.projectId ?? (profile ? currentWorkspaces(profile)[0]?.id : undefined) ?? null;
      const user = profile
        ? { id: profile.id, email: profile.email, name: `${profile.firstName} ${profile.lastName}`.trim() }
        : { id: email ?? 'unknown', ...(email ? { email } : {}) };
      dispatch(signedIn({ token: session.token, projectId, user }));
      if (profile) dispatch(profileApi.util.upsertQueryData('profile', undefined, profile));
      await navigate(safeNext(next), { replace: true });
      return null;
    },
    [dispatch, fetchProfile, navigate],
  );
}
