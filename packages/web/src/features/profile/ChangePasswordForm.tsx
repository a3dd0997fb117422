import { useTranslation } from 'react-i18next';
import { changePasswordRequestSchema } from '@slipway/contracts';
import { PasswordField } from '../../ui/PasswordField';
import { StackedForm } from '../../ui/StackedForm';
import { useFormFields } from '../../ui/useFormFields';
import { NewPasswordFields } from '../auth/PersonFields';
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

  return (
    <StackedForm
      form={form}
      onSubmit={onSubmit}
      aria-labelledby="change-password-heading"
      notice={form.succeeded ? t('profilePage.passwordChanged') : null}
      submitLabel={t('profilePage.changePassword')}
    >
      <PasswordField
        {...form.field('currentPassword')}
        label={t('profilePage.currentPassword')}
        autoComplete="current-password"
        fullWidth
      />
      <NewPasswordFields password={form.field('newPassword')} confirm={form.field('confirmPassword')} />
    </StackedForm>
  );
}
