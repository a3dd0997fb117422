import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { changePasswordRequestSchema, PASSWORD_RULE_MESSAGE } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { PasswordField } from '../../ui/PasswordField';
import { useFormFields } from '../../ui/useFormFields';
import { useChangePasswordMutation } from './api';

/** Current password, new password and its confirmation (spec §5 messages). */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const [change] = useChangePasswordMutation();
  const form = useFormFields({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const onSubmit = form.handleSubmit({
    schema: changePasswordRequestSchema,
    mutate: (body) => change(body),
    onSuccess: () => form.reset(),
  });

  const { helperText: newPasswordError, ...newPassword } = form.field('newPassword');
  return (
    <form ref={form.formRef} noValidate onSubmit={onSubmit} aria-labelledby="change-password-heading">
      <FormAlert message={form.formError} />
      <FormAlert message={form.succeeded ? t('profilePage.passwordChanged') : null} severity="success" />
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
          <Button type="submit" variant="contained" loading={form.submitting}>
            {t('profilePage.changePassword')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
