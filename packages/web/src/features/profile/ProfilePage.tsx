import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/api-error';
import { Button } from '../../ui/Button';
import { Skeleton } from '../../ui/Skeleton';
import { useProfileQuery } from './api';
import { ChangePasswordForm } from './ChangePasswordForm';
import { ProfileDetailsForm } from './ProfileDetailsForm';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: { xs: 2, md: 3 } }}>
      <Typography id={id} variant="h6" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** Profile settings: the user's name (e-mail shown) and a password change. */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { data: profile, error, isLoading, refetch, isFetching } = useProfileQuery();
  useEffect(() => {
    document.title = `${t('profilePage.title')} · ${t('app.name')}`;
  }, [t]);

  let details: ReactNode;
  if (isLoading) details = <Skeleton lines={3} />;
  else if (profile) details = <ProfileDetailsForm key={profile.id} profile={profile} />;
  else
    details = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" loading={isFetching} onClick={() => void refetch()}>
            {t('profilePage.retry')}
          </Button>
        }
      >
        {t('profilePage.loadError')} {errorMessage(error)}
      </Alert>
    );

  return (
    <Box data-testid="area-profile" sx={{ maxWidth: 720, display: 'grid', gap: 3 }}>
      <Typography variant="h4" component="h1">
        {t('profilePage.title')}
      </Typography>
      <Section id="profile-details-heading" title={t('profilePage.details')}>
        {details}
      </Section>
      <Section id="change-password-heading" title={t('profilePage.changePassword')}>
        <ChangePasswordForm />
      </Section>
    </Box>
  );
}
