import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router';
import { loginRequestSchema, OAUTH_HANDOFF_FRAGMENT } from '@slipway/contracts';
import { errorMessage, errorStatus, type ApiError } from '../../ui/api-error';
import { StackedForm } from '../../ui/StackedForm';
import { PasswordField } from '../../ui/PasswordField';
import { useFormFields } from '../../ui/useFormFields';
import { useLoginMutation, useOauthExchangeMutation } from './api';
import { AuthCard, OtherWayIn } from './AuthCard';
import { DirectorySignIn } from './DirectorySignIn';
import { takeRememberedNext } from './next-path';
import { useSignOutOnArrival } from './sign-out';
import { OAuthButtons } from './OAuthButtons';
import { EmailInput } from './PersonFields';
import { useCompleteSignIn } from './useCompleteSignIn';
import { withParams } from './with-params';

/** The API refuses an address whose code was never entered with 403 'Email not verified'. */
function isUnverified(error: ApiError): boolean {
  return errorStatus(error) === 403 && /not verified/i.test(errorMessage(error));
}

/**
 * Sign in with email and password, or with a single sign-on provider. It is also where the
 * provider's round trip ends: `#oauth=<one-time code>` is exchanged (by POST) for the session and
 * wiped from the address at once; `?error=` is shown. The session token never sits in a URL.
 */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  useSignOutOnArrival(location.state);
  const [params] = useSearchParams();
  const next = params.get('next');
  const [handoffCode] = useState(() =>
    new URLSearchParams(location.hash.slice(1)).get(OAUTH_HANDOFF_FRAGMENT),
  );
  const completeSignIn = useCompleteSignIn();
  const [login] = useLoginMutation();
  const [exchange] = useOauthExchangeMutation();
  const form = useFormFields({ email: '', password: '' }, { formError: params.get('error') });
  const { setFormError } = form;
  const [finishing, setFinishing] = useState(Boolean(handoffCode));
  const handled = useRef(false);

  useEffect(() => {
    if (!handoffCode || handled.current) return;
    handled.current = true;
    // The code is single-use: keep it out of the history and out of anything the page shares.
    window.history.replaceState(window.history.state, '', `${location.pathname}${location.search}`);
    void (async () => {
      const answer = await exchange({ code: handoffCode });
      const failure = answer.error
        ? errorMessage(answer.error)
        : await completeSignIn(answer.data, { next: takeRememberedNext() ?? next });
      if (!failure) return;
      setFormError(failure);
      setFinishing(false);
    })();
  }, [handoffCode, exchange, completeSignIn, next, location.pathname, location.search, setFormError]);

  const onSubmit = form.handleSubmit({
    schema: loginRequestSchema,
    mutate: (body) => login(body),
    onSuccess: async (session, body) => {
      const failure = await completeSignIn(session, { email: body.email, next });
      if (failure) setFormError(failure);
    },
    onError: async (error, body) => {
      if (!isUnverified(error)) return false;
      await navigate(withParams('/verify-email', { email: body.email, next, resend: '1' }));
      return true;
    },
  });

  const directory = params.get('ldap');
  if (directory && !finishing) return <DirectorySignIn organisationId={directory} next={next} />;

  if (finishing) {
    return (
      <AuthCard title={t('auth.login.title')}>
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <CircularProgress size={24} aria-hidden />
          <Typography>{t('auth.login.signingIn')}</Typography>
        </Box>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('auth.login.title')}
      footer={
        <OtherWayIn
          text={t('auth.login.noAccount')}
          to={withParams('/signup', { next })}
          link={t('auth.login.signupLink')}
        />
      }
    >
      <StackedForm
        form={form}
        onSubmit={onSubmit}
        aria-label={t('auth.login.title')}
        lead={<OAuthButtons intent="login" next={next} />}
        submitLabel={t('auth.login.submit')}
        wide
      >
        <EmailInput field={form.field('email')} autoFocus />
        <PasswordField
          {...form.field('password')}
          label={t('auth.password')}
          autoComplete="current-password"
          fullWidth
        />
        <Box sx={{ textAlign: 'end' }}>
          <Link component={RouterLink} to="/forgot-password" variant="body2">
            {t('auth.login.forgot')}
          </Link>
        </Box>
      </StackedForm>
    </AuthCard>
  );
}
