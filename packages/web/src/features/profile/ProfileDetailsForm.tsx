import { useTranslation } from 'react-i18next';
import { profileUpdateRequestSchema, type ProfileResponse } from '@slipway/contracts';
import { StackedForm } from '../../ui/StackedForm';
import { useFormFields } from '../../ui/useFormFields';
import { FixedEmail, NameFields } from '../auth/PersonFields';
import { useUpdateProfileMutation } from './api';

/** First and last name; the e-mail address is shown, not edited. */
export function ProfileDetailsForm({ profile }: { profile: ProfileResponse }) {
  const { t } = useTranslation();
  const [update] = useUpdateProfileMutation();
  const form = useFormFields({ firstName: profile.firstName, lastName: profile.lastName });
  const onSubmit = form.handleSubmit({
    schema: profileUpdateRequestSchema,
    mutate: (body) => update(body),
  });

  return (
    <StackedForm
      form={form}
      onSubmit={onSubmit}
      aria-labelledby="profile-details-heading"
      notice={form.succeeded ? t('profilePage.saved') : null}
      submitLabel={t('profilePage.save')}
    >
      <NameFields first={form.field('firstName')} last={form.field('lastName')} />
      <FixedEmail id="field-email" email={profile.email} autoComplete="email" />
    </StackedForm>
  );
}
