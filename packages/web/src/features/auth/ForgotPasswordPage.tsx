import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { forgotPasswordRequestSchema, MESSAGES } from '@slipway/contracts';
import { errorMessage } from '../../ui/api-error';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { StackedForm } from '../../ui/StackedForm';
import { useFormFields } from '../../ui/useFormFields';
import { useForgotPasswordMutation } from './api';
import { AuthCard, BackToLogin } from './AuthCard';
import { EmailInput } from './PersonFields';

/**
 * Asks for a reset link. The answer is 'Check your email' whether or not the address has an
 * account, with a link to send it again.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [forgot, { isLoading }] = useForgotPasswordMutation();
  const form = useFormFields({ email: '' });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const onSubmit = form.handleSubmit({
    schema: forgotPasswordRequestSchema,
    mutate: (body) => forgot(body),
    onSuccess: (_answer, body) => setSentTo(body.email),
  });

  async function onResend() {
    if (!sentTo) return;
    form.setFormError(null);
    setNotice(null);
    const answer = await forgot({ email: sentTo });
    if (!answer.error) setNotice(t('auth.forgot.resent'));
    else form.setFormError(errorMessage(answer.error));
  }

  if (sentTo) {
    return (
      <AuthCard title={MESSAGES.checkYourEmail} footer={<BackToLogin />}>
        <Typography sx={{ mb: 2 }}>{t('auth.forgot.sentBody', { email: sentTo })}</Typography>
        <FormAlert message={form.formError} />
        <FormAlert message={notice} severity="success" />
        <Typography variant="body2" color="text.secondary" component="div">
          {t('auth.forgot.notReceived')}{' '}
          <Button variant="text" size="small" loading={isLoading} onClick={() => void onResend()}>
            {t('auth.forgot.resend')}
          </Button>
        </Typography>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('auth.forgot.title')} intro={t('auth.forgot.intro')} footer={<BackToLogin />}>
      <StackedForm
        form={form}
        onSubmit={onSubmit}
        aria-label={t('auth.forgot.title')}
        submitLabel={t('auth.forgot.submit')}
        wide
      >
        <EmailInput field={form.field('email')} autoFocus />
      </StackedForm>
    </AuthCard>
  );
}
