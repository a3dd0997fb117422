import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/api-error';
import { Skeleton } from '../../ui/Skeleton';
import { AuthCard, BackToLogin, MissingTokenCard } from '../auth/AuthCard';
import { useInviteLookupQuery } from './api';
import { ExistingMemberForm } from './ExistingMemberForm';
import { NewMemberForm } from './NewMemberForm';

/**
 * An invite link: looks the invite up, then asks a new person for their name and a password, or
 * an existing one for their password; accepting signs them in to the inviting organisation.
 */
export function AcceptInvite({ token }: { token: string }) {
  const { t } = useTranslation();
  const { data, error, isLoading } = useInviteLookupQuery(token, { skip: !token });
  const backToLogin = <BackToLogin />;
  const title = t('invite.title');

  if (!token) return <MissingTokenCard title={title} />;
  if (isLoading)
    return (
      <AuthCard title={title}>
        <Skeleton lines={4} />
      </AuthCard>
    );
  if (!data)
    return (
      <AuthCard title={title} footer={backToLogin}>
        <Alert severity="error" data-testid="invite-invalid">
          {errorMessage(error)}
        </Alert>
      </AuthCard>
    );
  const intro = t(data.existingUser ? 'invite.introExisting' : 'invite.introNew', {
    organisation: data.organisationName,
    email: data.email,
  });
  return (
    <AuthCard
      title={t('invite.joinTitle', { organisation: data.organisationName })}
      intro={intro}
      footer={backToLogin}
    >
      {data.existingUser ? (
        <ExistingMemberForm token={token} invite={data} />
      ) : (
        <NewMemberForm token={token} invite={data} />
      )}
    </AuthCard>
  );
}
