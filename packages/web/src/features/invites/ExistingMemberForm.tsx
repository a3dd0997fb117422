import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../app/hooks';
import { Button } from '../../ui/Button';
import { PasswordField } from '../../ui/PasswordField';
import { StackedForm } from '../../ui/StackedForm';
import { useFormFields } from '../../ui/useFormFields';
import { FixedEmail } from '../auth/PersonFields';
import { useCompleteSignIn } from '../auth/useCompleteSignIn';
import { useAcceptInviteMutation, type InviteLookup } from './api';
import { existingMemberSchema } from './invite-forms';

/**
 * Someone with an account already: they sign in with their password to accept, or, when this
 * browser is signed in as them, accept with that session.
 */
export function ExistingMemberForm({ token, invite }: { token: string; invite: InviteLookup }) {
  const { t } = useTranslation();
  const signedIn = useAppSelector((s) => Boolean(s.auth.token));
  const [accept] = useAcceptInviteMutation();
  const completeSignIn = useCompleteSignIn();
  const form = useFormFields({ password: '' });
  const signIn = async (session: Parameters<typeof completeSignIn>[0]) => {
    const failed = await completeSignIn(session, { email: invite.email });
    if (failed) form.setFormError(failed);
  };
  const onSubmit = form.handleSubmit({
    schema: existingMemberSchema,
    mutate: (body) => accept({ token, password: body.password }),
    onSuccess: signIn,
  });
  const acceptWithSession = form.handleSubmit({ mutate: () => accept({ token }), onSuccess: signIn });

  return (
    <StackedForm
      form={form}
      onSubmit={onSubmit}
      aria-label={t('invite.title')}
      submitLabel={t('invite.signInAndAccept')}
      wide
      after={
        signedIn ? (
          <Button
            variant="outlined"
            fullWidth
            disabled={form.submitting}
            onClick={() => void acceptWithSession()}
          >
            {t('invite.acceptWithSession')}
          </Button>
        ) : null
      }
    >
      <FixedEmail id="invite-email" email={invite.email} autoComplete="username" />
      <PasswordField
        {...form.field('password')}
        label={t('auth.password')}
        autoComplete="current-password"
        autoFocus
        fullWidth
      />
    </StackedForm>
  );
}
