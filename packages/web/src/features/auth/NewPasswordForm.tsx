import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { PASSWORD_RULE_MESSAGE, resetPasswordRequestSchema } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { PasswordField } from '../../ui/PasswordField';
import { useFormFields } from '../../ui/useFormFields';
import { useResetPasswordMutation } from './api';
import { AuthCard } from './AuthCard';

/**
 * A new password and its confirmation for the single-use link in `?token=`: a reset after
 * "forgot password" (`reset`), or the first password of an invited member (`setPassword`).
 */
export function NewPasswordForm({ mode }: { mode: 'reset' | 'setPassword' }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [reset] = useResetPasswordMutation();
  const form = useFormFields({ password: '', confirmPassword: '' });
  const backToLogin = (
    <Link component={RouterLink} to="/login" variant="body2">
      {t('auth.backToLogin')}
    </Link>
  );

  const onSubmit = form.handleSubmit({
    schema: resetPasswordRequestSchema,
    input: { token, ...form.values },
    mutate: (body) => reset(body),
  });

  if (!token) {
    return (
      <AuthCard title={t(`auth.${mode}.title`)} footer={backToLogin}>
        <Alert severity="warning">{t('auth.missingToken')}</Alert>
      </AuthCard>
    );
  }

  if (form.succeeded) {
    return (
      <AuthCard title={t(`auth.${mode}.title`)}>
        <FormAlert message={t(`auth.${mode}.done`)} severity="success" />
        <Button component={RouterLink} to="/login" variant="contained" fullWidth>
          {t('auth.signup.loginLink')}
        </Button>
      </AuthCard>
    );
  }

  const { helperText: passwordError, ...password } = form.field('password');
  return (
    <AuthCard title={t(`auth.${mode}.title`)} intro={t(`auth.${mode}.intro`)} footer={backToLogin}>
      <FormAlert message={form.formError} />
      <form ref={form.formRef} noValidate onSubmit={onSubmit} aria-label={t(`auth.${mode}.title`)}>
        <Stack spacing={2}>
          <PasswordField
            {...password}
            label={t('auth.newPassword')}
            autoComplete="new-password"
            helperText={passwordError ?? PASSWORD_RULE_MESSAGE}
            autoFocus
            fullWidth
          />
          <PasswordField
            {...form.field('confirmPassword')}
            label={t('auth.confirmPassword')}
            autoComplete="new-password"
            fullWidth
          />
          <Button type="submit" variant="contained" size="large" fullWidth loading={form.submitting}>
            {t(`auth.${mode}.submit`)}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
