import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { profileUpdateRequestSchema, type ProfileResponse } from '@slipway/contracts';
import { formErrors } from '../../app/api-error';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { useFormFields } from '../../ui/useFormFields';
import { useUpdateProfileMutation } from './api';

/** First and last name; the e-mail address is shown, not edited. */
export function ProfileDetailsForm({ profile }: { profile: ProfileResponse }) {
  const { t } = useTranslation();
  const [update, { isLoading }] = useUpdateProfileMutation();
  const form = useFormFields({ firstName: profile.firstName, lastName: profile.lastName });
  const [serverError, setServerError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    setServerError(null);
    const body = form.parse(profileUpdateRequestSchema, form.values);
    if (!body) return;
    const answer = await update(body);
    if (!answer.error) {
      setSaved(true);
      return;
    }
    const { fields, message } = formErrors(answer.error);
    form.showErrors(fields);
    setServerError(message);
  }

  return (
    <form ref={form.formRef} noValidate onSubmit={onSubmit} aria-labelledby="profile-details-heading">
      <FormAlert message={serverError} />
      <FormAlert message={saved ? t('profilePage.saved') : null} severity="success" />
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            {...form.field('firstName')}
            label={t('auth.firstName')}
            autoComplete="given-name"
            fullWidth
          />
          <TextField
            {...form.field('lastName')}
            label={t('auth.lastName')}
            autoComplete="family-name"
            fullWidth
          />
        </Stack>
        <TextField
          id="field-email"
          label={t('auth.email')}
          value={profile.email}
          autoComplete="email"
          fullWidth
          slotProps={{ htmlInput: { readOnly: true } }}
        />
        <div>
          <Button type="submit" variant="contained" loading={isLoading}>
            {t('profilePage.save')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
