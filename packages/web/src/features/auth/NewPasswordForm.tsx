import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { resetPasswordRequestSchema } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { StackedForm } from '../../ui/StackedForm';
import { useFormFields } from '../../ui/useFormFields';
import { useResetPasswordMutation } from './api';
import { AuthCard, BackToLogin, MissingTokenCard } from './AuthCard';
import { NewPasswordFields } from './PersonFields';

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

  const onSubmit = form.handleSubmit({
    schema: resetPasswordRequestSchema,
    input: { token, ...form.values },
    mutate: (body) => reset(body),
  });

  if (!token) return <MissingTokenCard title={t(`auth.${mode}.title`)} />;

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

  return (
    <AuthCard title={t(`auth.${mode}.title`)} intro={t(`auth.${mode}.intro`)} footer={<BackToLogin />}>
      <StackedForm
        form={form}
        onSubmit={onSubmit}
        aria-label={t(`auth.${mode}.title`)}
        submitLabel={t(`auth.${mode}.submit`)}
        wide
      >
        <NewPasswordFields
          password={form.field('password')}
          confirm={form.field('confirmPassword')}
          autoFocus
        />
      </StackedForm>
    </AuthCard>
  );
}
