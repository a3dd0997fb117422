import { Navigate, Outlet, useLocation } from 'react-router';
import { withParams } from '../features/auth/with-params';
import { useAppSelector } from './hooks';

/**
 * Everything inside the application layout needs a session. Without a token the user goes to
 * the login page, which brings them back (`next`) once they are signed in.
 */
export function RequireAuth() {
  const token = useAppSelector((s) => s.auth.token);
  const location = useLocation();
  if (token) return <Outlet />;
  const next = `${location.pathname}${location.search}${location.hash}`;
  return <Navigate to={withParams('/login', { next })} replace />;
}
