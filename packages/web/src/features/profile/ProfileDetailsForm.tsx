import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { profileUpdateRequestSchema, type ProfileResponse } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { useFormFields } from '../../ui/useFormFields';
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
    <form ref={form.formRef} noValidate onSubmit={onSubmit} aria-labelledby="profile-details-heading">
      <FormAlert message={form.formError} />
      <FormAlert message={form.succeeded ? t('profilePage.saved') : null} severity="success" />
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
          <Button type="submit" variant="contained" loading={form.submitting}>
            {t('profilePage.save')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
