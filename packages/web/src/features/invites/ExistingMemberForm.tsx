import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { InviteAcceptRequest } from '@slipway/contracts';
import { formErrors } from '../../app/api-error';
import { useAppSelector } from '../../app/hooks';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { PasswordField } from '../../ui/PasswordField';
import { useFormFields } from '../../ui/useFormFields';
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
  const [accept, { isLoading }] = useAcceptInviteMutation();
  const completeSignIn = useCompleteSignIn();
  const form = useFormFields({ password: '' });
  const [serverError, setServerError] = useState<string | null>(null);

  async function send(body: InviteAcceptRequest) {
    setServerError(null);
    const answer = await accept(body);
    if (answer.error) {
      const { fields, message } = formErrors(answer.error);
      form.showErrors(fields);
      setServerError(message);
      return;
    }
    const failed = await completeSignIn(answer.data, { email: invite.email });
    if (failed) setServerError(failed);
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const body = form.parse(existingMemberSchema, form.values);
    if (body) await send({ token, password: body.password });
  }

  return (
    <form ref={form.formRef} noValidate onSubmit={onSubmit} aria-label={t('invite.title')}>
      <FormAlert message={serverError} />
      <Stack spacing={2}>
        <TextField
          id="invite-email"
          label={t('auth.email')}
          value={invite.email}
          autoComplete="username"
          fullWidth
          slotProps={{ htmlInput: { readOnly: true } }}
        />
        <PasswordField
          {...form.field('password')}
          label={t('auth.password')}
          autoComplete="current-password"
          autoFocus
          fullWidth
        />
        <Button type="submit" variant="contained" size="large" fullWidth loading={isLoading}>
          {t('invite.signInAndAccept')}
        </Button>
        {signedIn ? (
          <Button variant="outlined" fullWidth disabled={isLoading} onClick={() => void send({ token })}>
            {t('invite.acceptWithSession')}
          </Button>
        ) : null}
      </Stack>
    </form>
  );
}
