import Box from '@mui/material/Box';
import { TextInput } from '../../ui/TextInput';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { resendCodeRequestSchema, VERIFICATION, verifyCodeRequestSchema } from '@slipway/contracts';
import { errorMessage } from '../../ui/api-error';
import { Button } from '../../ui/Button';
import { CountdownTimer } from '../../ui/CountdownTimer';
import { StackedForm } from '../../ui/StackedForm';
import { useFormFields } from '../../ui/useFormFields';
import { useResendCodeMutation, useVerifyCodeMutation } from './api';
import { AuthCard, BackToLogin } from './AuthCard';
import { EmailInput } from './PersonFields';
import { useCompleteSignIn } from './useCompleteSignIn';

/**
 * The e-mailed 6-digit code. A wrong code says 'Invalid OTP!'. Another code may be asked for when
 * the countdown (60 s) ends; arriving from the login page (`resend=1`) it may be asked for at once.
 */
export default function VerifyEmailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const location = useLocation();
  const knownEmail = params.get('email') ?? '';
  const next = params.get('next');
  const firstWait =
    params.get('resend') === '1'
      ? 0
      : ((location.state as { resendAfterSeconds?: number } | null)?.resendAfterSeconds ??
        VERIFICATION.resendAfterSeconds);
  const [countdown, setCountdown] = useState({ seconds: firstWait, round: 0 });
  const [canResend, setCanResend] = useState(firstWait <= 0);
  const [verify] = useVerifyCodeMutation();
  const [resend, { isLoading: resending }] = useResendCodeMutation();
  const completeSignIn = useCompleteSignIn();
  const form = useFormFields({ email: knownEmail, code: '' });
  const [notice, setNotice] = useState<string | null>(null);

  const onSubmit = form.handleSubmit({
    schema: verifyCodeRequestSchema,
    mutate: (body) => {
      setNotice(null);
      return verify(body);
    },
    onSuccess: async (session, body) =>
      form.setFormError(await completeSignIn(session, { email: body.email, next })),
  });

  async function onResend() {
    form.setFormError(null);
    const body = form.parse(resendCodeRequestSchema, { email: form.values.email });
    if (!body) return;
    setNotice(null);
    const answer = await resend(body);
    if (answer.error) {
      form.setFormError(errorMessage(answer.error));
      return;
    }
    setNotice(t('auth.verify.resent', { email: body.email }));
    setCanResend(false);
    setCountdown((c) => ({ seconds: answer.data.resendAfterSeconds, round: c.round + 1 }));
  }

  return (
    <AuthCard
      title={t('auth.verify.title')}
      intro={knownEmail ? t('auth.verify.intro', { email: knownEmail }) : t('auth.verify.introNoEmail')}
      footer={<BackToLogin />}
    >
      <StackedForm
        form={form}
        onSubmit={onSubmit}
        aria-label={t('auth.verify.title')}
        notice={notice}
        submitLabel={t('auth.verify.submit')}
        wide
      >
        {knownEmail ? null : <EmailInput field={form.field('email')} autoFocus />}
        <TextInput
          {...form.field('code')}
          label={t('auth.verify.code')}
          autoComplete="one-time-code"
          autoFocus={Boolean(knownEmail)}
          fullWidth
          htmlInput={{ inputMode: 'numeric', maxLength: 6, pattern: '[0-9]*' }}
        />
      </StackedForm>
      <Box sx={{ mt: 2, display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="body2" color="text.secondary">
          {canResend ? t('auth.verify.resendReady') : t('auth.verify.resendIn')}
        </Typography>
        {canResend ? null : (
          <CountdownTimer
            key={countdown.round}
            seconds={countdown.seconds}
            onComplete={() => setCanResend(true)}
            variant="body2"
            sx={{ fontVariantNumeric: 'tabular-nums' }}
          />
        )}
        <Button
          variant="text"
          size="small"
          disabled={!canResend}
          loading={resending}
          onClick={() => void onResend()}
          data-testid="resend-code"
        >
          {t('auth.verify.resend')}
        </Button>
      </Box>
    </AuthCard>
  );
}
