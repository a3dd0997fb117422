import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { PASSWORD_RULE_MESSAGE } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { PasswordField } from '../../ui/PasswordField';
import { useFormFields } from '../../ui/useFormFields';
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

  const { helperText: passwordError, ...password } = form.field('password');
  return (
    <form ref={form.formRef} noValidate onSubmit={onSubmit} aria-label={t('invite.title')}>
      <FormAlert message={form.formError} />
      <Stack spacing={2}>
        <TextField
          id="invite-email"
          label={t('auth.email')}
          value={invite.email}
          fullWidth
          slotProps={{ htmlInput: { readOnly: true } }}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            {...form.field('firstName')}
            label={t('auth.firstName')}
            autoComplete="given-name"
            autoFocus
            fullWidth
          />
          <TextField
            {...form.field('lastName')}
            label={t('auth.lastName')}
            autoComplete="family-name"
            fullWidth
          />
        </Stack>
        <PasswordField
          {...password}
          label={t('auth.password')}
          autoComplete="new-password"
          helperText={passwordError ?? PASSWORD_RULE_MESSAGE}
          fullWidth
        />
        <PasswordField
          {...form.field('confirmPassword')}
          label={t('invite.confirmPassword')}
          autoComplete="new-password"
          fullWidth
        />
        <Button type="submit" variant="contained" size="large" fullWidth loading={form.submitting}>
          {t('invite.accept')}
        </Button>
      </Stack>
    </form>
  );
}
