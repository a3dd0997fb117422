import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../app/api';
import { errorMessage } from '../../ui/api-error';
import { useAppDispatch } from '../../app/hooks';
import { signedIn } from '../auth/auth-slice';
import { useProfileQuery } from '../profile/api';
import { useSwitchOrganisationMutation } from './api';

/**
 * Account switch: the server ends this session and answers one in the other organisation; the
 * new token replaces the old, every cached answer (the old organisation's) is dropped, and the
 * user lands on the dashboard.
 */
export function useSwitchOrganisation() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { data: profile } = useProfileQuery();
  const [switchTo, { isLoading }] = useSwitchOrganisationMutation();
  const [error, setError] = useState<string | null>(null);

  async function run(organisationId: string) {
    setError(null);
    const answer = await switchTo(organisationId);
    if (answer.error) {
      setError(errorMessage(answer.error));
      return;
    }
    const user = profile ? { id: profile.id, email: profile.email } : { id: 'unknown' };
    dispatch(signedIn({ token: answer.data.token, projectId: answer.data.projectId, user }));
    dispatch(api.util.resetApiState());
    await navigate('/dashboard');
  }

  return { run, isLoading, error };
}
