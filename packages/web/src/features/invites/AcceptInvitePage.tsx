import { useSearchParams } from 'react-router';
import { AcceptInvite } from './AcceptInvite';

/** /accept-invite?token=…: another way into an invite link (the e-mail uses /set-password?invite=…). */
export default function AcceptInvitePage() {
  const [params] = useSearchParams();
  return <AcceptInvite token={params.get('token') ?? params.get('invite') ?? ''} />;
}
