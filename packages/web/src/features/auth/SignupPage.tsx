import { TextInput } from '../../ui/TextInput';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { signupRequestSchema } from '@slipway/contracts';
import { StackedForm } from '../../ui/StackedForm';
import { useFormFields } from '../../ui/useFormFields';
import { useSignupMutation } from './api';
import { AuthCard, OtherWayIn } from './AuthCard';
import { OAuthButtons } from './OAuthButtons';
import { EmailInput, NameFields, NewPasswordFields } from './PersonFields';
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

  const { helperText: organisationError, ...organisation } = form.field('organisationName');
  return (
    <AuthCard
      title={t('auth.signup.title')}
      footer={
        <OtherWayIn
          text={t('auth.signup.haveAccount')}
          to={withParams('/login', { next })}
          link={t('auth.signup.loginLink')}
        />
      }
    >
      <StackedForm
        form={form}
        onSubmit={onSubmit}
        aria-label={t('auth.signup.title')}
        lead={<OAuthButtons intent="signup" next={next} />}
        submitLabel={t('auth.signup.submit')}
        wide
      >
        <NameFields first={form.field('firstName')} last={form.field('lastName')} autoFocus />
        <EmailInput field={form.field('email')} />
        <NewPasswordFields password={form.field('password')} label={t('auth.password')} />
        <TextInput
          {...organisation}
          label={t('auth.organisationName')}
          autoComplete="organization"
          helperText={organisationError ?? t('auth.organisationHint')}
          fullWidth
        />
      </StackedForm>
    </AuthCard>
  );
}
