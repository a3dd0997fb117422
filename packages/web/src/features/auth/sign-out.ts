import { useEffect } from 'react';
import { endSession } from '../../app/api';
import { useAppDispatch } from '../../app/hooks';

/** Navigation state asking the login page to end the session (the user menu's "Sign out"). */
export const SIGN_OUT = { signOut: true } as const;

/**
 * Ends the session once the login page is on screen. Signing out from inside the guarded layout
 * would otherwise have the route guard redirect first, to /login?next=<the page being left>.
 */
export function useSignOutOnArrival(state: unknown) {
  const dispatch = useAppDispatch();
  const asked = (state as Partial<typeof SIGN_OUT> | null)?.signOut === true;
  useEffect(() => {
    if (asked) endSession(dispatch);
  }, [asked, dispatch]);
}
