import { useTranslation } from 'react-i18next';
import { StackedForm } from '../../ui/StackedForm';
import { useFormFields } from '../../ui/useFormFields';
import { FixedEmail, NameFields, NewPasswordFields } from '../auth/PersonFields';
import { useCompleteSignIn } from '../auth/useCompleteSignIn';
import { useAcceptInviteMutation, type InviteLookup } from './api';
import { newMemberSchema } from './invite-forms';

/** A person new to Slipway: first and last name and a password, then they are signed in. */
export function NewMemberForm({ token, invite }: { token: string; invite: InviteLookup }) {
  const { t } = useTranslation();
  const [accept] = useAcceptInviteMutation();
  const completeSignIn = useCompleteSignIn();
  const form = useFormFields({ firstName: '', lastName: '', password: '', confirmPassword: '' });
  const onSubmit = form.handleSubmit({
    schema: newMemberSchema,
    mutate: (body) =>
      accept({ token, firstName: body.firstName, lastName: body.lastName, password: body.password }),
    onSuccess: async (session) => {
      const failed = await completeSignIn(session, { email: invite.email });
      if (failed) form.setFormError(failed);
    },
  });

  return (
    <StackedForm
      form={form}
      onSubmit={onSubmit}
      aria-label={t('invite.title')}
      submitLabel={t('invite.accept')}
      wide
    >
      <FixedEmail id="invite-email" email={invite.email} />
      <NameFields first={form.field('firstName')} last={form.field('lastName')} autoFocus />
      <NewPasswordFields
        password={form.field('password')}
        confirm={form.field('confirmPassword')}
        label={t('auth.password')}
        confirmLabel={t('invite.confirmPassword')}
      />
    </StackedForm>
  );
}
