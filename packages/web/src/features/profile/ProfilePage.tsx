import { useTranslation } from 'react-i18next';
import { AreaPage } from '../../ui/AreaPage';
import { Loaded } from '../../ui/Loaded';
import { Section } from '../../ui/Section';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useProfileQuery } from './api';
import { ChangePasswordForm } from './ChangePasswordForm';
import { ProfileDetailsForm } from './ProfileDetailsForm';

/** Profile settings: the user's name (e-mail shown) and a password change. */
export default function ProfilePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('profilePage.title'));
  const query = useProfileQuery();
  return (
    <AreaPage id="profile" title={t('profilePage.title')} maxWidth={720}>
      <Section id="profile-details-heading" title={t('profilePage.details')}>
        <Loaded query={query} lines={3} what={t('profilePage.loadError')}>
          {(profile) => <ProfileDetailsForm key={profile.id} profile={profile} />}
        </Loaded>
      </Section>
      <Section id="change-password-heading" title={t('profilePage.changePassword')}>
        <ChangePasswordForm />
      </Section>
    </AreaPage>
  );
}
