import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../app/hooks';
import { Button } from '../../ui/Button';
import { PasswordField } from '../../ui/PasswordField';
import { useFormFields } from '../../ui/useFormFields';
import type { InviteLookup } from './api';
import { InviteForm, useAcceptInvite } from './InviteForm';
import { existingMemberSchema } from './invite-forms';

/**
 * Someone with an account already: they sign in with their password to accept, or, when this
 * browser is signed in as them, accept with that session.
 */
export function ExistingMemberForm({ token, invite }: { token: string; invite: InviteLookup }) {
  const { t } = useTranslation();
  const signedIn = useAppSelector((s) => Boolean(s.auth.token));
  const form = useFormFields({ password: '' });
  const { accept, signIn } = useAcceptInvite(invite.email, form.setFormError);
  const onSubmit = form.handleSubmit({
    schema: existingMemberSchema,
    mutate: (body) => accept({ token, password: body.password }),
    onSuccess: signIn,
  });
  const acceptWithSession = form.handleSubmit({ mutate: () => accept({ token }), onSuccess: signIn });

  return (
    <InviteForm
      form={form}
      onSubmit={onSubmit}
      email={invite.email}
      emailAutoComplete="username"
      submitLabel={t('invite.signInAndAccept')}
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
      <PasswordField
        {...form.field('password')}
        label={t('auth.password')}
        autoComplete="current-password"
        autoFocus
        fullWidth
      />
    </InviteForm>
  );
}
