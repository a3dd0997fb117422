import { useSearchParams } from 'react-router';
import { AcceptInvite } from '../invites/AcceptInvite';
import { NewPasswordForm } from './NewPasswordForm';

/**
 * /set-password?token=…: choose a new password from a single-use link.
 * /set-password?invite=…: the link of an invite e-mail; the invited person joins the organisation.
 */
export default function SetPasswordPage() {
  const [params] = useSearchParams();
  const invite = params.get('invite');
  if (invite !== null) return <AcceptInvite token={invite} />;
  return <NewPasswordForm mode="setPassword" />;
}
