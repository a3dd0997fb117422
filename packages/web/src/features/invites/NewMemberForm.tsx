import { useTranslation } from 'react-i18next';
import { useFormFields } from '../../ui/useFormFields';
import { NameFields, NewPasswordFields } from '../auth/PersonFields';
import type { InviteLookup } from './api';
import { InviteForm, useAcceptInvite } from './InviteForm';
import { newMemberSchema } from './invite-forms';

/** A person new to Slipway: first and last name and a password, then they are signed in. */
export function NewMemberForm({ token, invite }: { token: string; invite: InviteLookup }) {
  const { t } = useTranslation();
  const form = useFormFields({ firstName: '', lastName: '', password: '', confirmPassword: '' });
  const { accept, signIn } = useAcceptInvite(invite.email, form.setFormError);
  const onSubmit = form.handleSubmit({
    schema: newMemberSchema,
    mutate: (body) =>
      accept({ token, firstName: body.firstName, lastName: body.lastName, password: body.password }),
    onSuccess: signIn,
  });

  return (
    <InviteForm form={form} onSubmit={onSubmit} email={invite.email} submitLabel={t('invite.accept')}>
      <NameFields first={form.field('firstName')} last={form.field('lastName')} autoFocus />
      <NewPasswordFields
        password={form.field('password')}
        confirm={form.field('confirmPassword')}
        label={t('auth.password')}
        confirmLabel={t('invite.confirmPassword')}
      />
    </InviteForm>
  );
}
