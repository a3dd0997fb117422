import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { StackedForm, type StackedFormProps } from '../../ui/StackedForm';
import { FixedEmail } from '../auth/PersonFields';
import { useCompleteSignIn } from '../auth/useCompleteSignIn';
import { useAcceptInviteMutation } from './api';

/**
 * Accepting an invite (`accept`) and signing in with the session it answers (`signIn`, the
 * submission's `onSuccess`); a sign-in that fails is the form's error.
 */
export function useAcceptInvite(email: string, setFormError: (message: string | null) => void) {
  const [accept] = useAcceptInviteMutation();
  const completeSignIn = useCompleteSignIn();
  const signIn = async (session: Parameters<typeof completeSignIn>[0]) => {
    const failed = await completeSignIn(session, { email });
    if (failed) setFormError(failed);
  };
  return { accept, signIn };
}

/** An invite's form: the invited address, shown and not edited, then the fields and Accept. */
export function InviteForm({
  form,
  onSubmit,
  email,
  emailAutoComplete,
  submitLabel,
  after,
  children,
}: {
  form: StackedFormProps['form'];
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  email: string;
  emailAutoComplete?: string;
  submitLabel: string;
  after?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <StackedForm
      form={form}
      onSubmit={onSubmit}
      aria-label={t('invite.title')}
      submitLabel={submitLabel}
      after={after}
      wide
    >
      <FixedEmail id="invite-email" email={email} autoComplete={emailAutoComplete} />
      {children}
    </StackedForm>
  );
}
