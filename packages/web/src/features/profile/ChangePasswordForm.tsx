import Stack from '@mui/material/Stack';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { changePasswordRequestSchema, PASSWORD_RULE_MESSAGE } from '@slipway/contracts';
import { formErrors } from '../../app/api-error';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { PasswordField } from '../../ui/PasswordField';
import { useFormFields } from '../../ui/useFormFields';
import { useChangePasswordMutation } from './api';

/** Current password, new password and its confirmation (spec §5 messages). */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const [change, { isLoading }] = useChangePasswordMutation();
  const form = useFormFields({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const [serverError, setServerError] = useState<string | null>(null);
  const [changed, setChanged] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setChanged(false);
    setServerError(null);
    const body = form.parse(changePasswordRequestSchema, form.values);
    if (!body) return;
    const answer = await change(body);
    if (!answer.error) {
      form.reset();
      setChanged(true);
      return;
    }
    const { fields, message } = formErrors(answer.error);
    form.showErrors(fields);
    setServerError(message);
  }

  const { helperText: newPasswordError, ...newPassword } = form.field('newPassword');
  return (
    <form ref={form.formRef} noValidate onSubmit={onSubmit} aria-labelledby="change-password-heading">
      <FormAlert message={serverError} />
      <FormAlert message={changed ? t('profilePage.passwordChanged') : null} severity="success" />
      <Stack spacing={2}>
        <PasswordField
          {...form.field('currentPassword')}
          label={t('profilePage.currentPassword')}
          autoComplete="current-password"
          fullWidth
        />
        <PasswordField
          {...newPassword}
          label={t('auth.newPassword')}
          autoComplete="new-password"
          helperText={newPasswordError ?? PASSWORD_RULE_MESSAGE}
          fullWidth
        />
        <PasswordField
          {...form.field('confirmPassword')}
          label={t('auth.confirmPassword')}
          autoComplete="new-password"
          fullWidth
        />
        <div>
          <Button type="submit" variant="contained" loading={isLoading}>
            {t('profilePage.changePassword')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
