import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { TextInput } from '../../ui/TextInput';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { PASSWORD_RULE_MESSAGE, signupRequestSchema } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { PasswordField } from '../../ui/PasswordField';
import { useFormFields } from '../../ui/useFormFields';
import { useSignupMutation } from './api';
import { AuthCard } from './AuthCard';
import { OAuthButtons } from './OAuthButtons';
import { withParams } from './with-params';

/** Sign up with email and password (a code is mailed next), or with G Suite or Azure. */
export default function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = params.get('next');
  const [signup] = useSignupMutation();
  const form = useFormFields({ firstName: '', lastName: '', email: '', password: '', organisationName: '' });
  const { organisationName, ...rest } = form.values;
  const onSubmit = form.handleSubmit({
    schema: signupRequestSchema,
    input: { ...rest, ...(organisationName.trim() ? { organisationName } : {}) },
    mutate: (body) => signup(body),
    onSuccess: (created, body) =>
      navigate(withParams('/verify-email', { email: created.email || body.email, next }), {
        state: { resendAfterSeconds: created.resendAfterSeconds },
      }),
  });

  const { helperText: passwordError, ...password } = form.field('password');
  const { helperText: organisationError, ...organisation } = form.field('organisationName');
  return (
    <AuthCard
      title={t('auth.signup.title')}
      footer={
        <Typography variant="body2">
          {t('auth.signup.haveAccount')}{' '}
          <Link component={RouterLink} to={withParams('/login', { next })}>
            {t('auth.signup.loginLink')}
          </Link>
        </Typography>
      }
    >
      <FormAlert message={form.formError} />
      <OAuthButtons intent="signup" next={next} />
      <form ref={form.formRef} noValidate onSubmit={onSubmit} aria-label={t('auth.signup.title')}>
        <Stack spacing={2}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextInput
              {...form.field('firstName')}
              label={t('auth.firstName')}
              autoComplete="given-name"
              autoFocus
              fullWidth
            />
            <TextInput
              {...form.field('lastName')}
              label={t('auth.lastName')}
              autoComplete="family-name"
              fullWidth
            />
          </Stack>
          <TextInput
            {...form.field('email')}
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            fullWidth
          />
          <PasswordField
            {...password}
            label={t('auth.password')}
            autoComplete="new-password"
            helperText={passwordError ?? PASSWORD_RULE_MESSAGE}
            fullWidth
          />
          <TextInput
            {...organisation}
            label={t('auth.organisationName')}
            autoComplete="organization"
            helperText={organisationError ?? t('auth.organisationHint')}
            fullWidth
          />
          <Button type="submit" variant="contained" size="large" fullWidth loading={form.submitting}>
            {t('auth.signup.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
