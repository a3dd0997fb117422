import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ldapLoginRequestSchema } from '@slipway/contracts';
import { PasswordField } from '../../ui/PasswordField';
import { StackedForm } from '../../ui/StackedForm';
import { TextInput } from '../../ui/TextInput';
import { useFormFields } from '../../ui/useFormFields';
import { useLdapLoginMutation } from './api';
import { AuthCard } from './AuthCard';
import { useCompleteSignIn } from './useCompleteSignIn';
import { withParams } from './with-params';

/**
 * Sign-in with an organisation's directory (LDAP, spec §7 "ldap login"): the organisation's
 * directory sign-in link (`/login?ldap=<organisation id>`, shown in its Enterprise SSO settings)
 * opens this form; the directory checks the username and password.
 */
export function DirectorySignIn({ organisationId, next }: { organisationId: string; next: string | null }) {
  const { t } = useTranslation();
  const completeSignIn = useCompleteSignIn();
  const [ldapLogin] = useLdapLoginMutation();
  const form = useFormFields({ username: '', password: '' }, { idPrefix: 'ldap' });
  const onSubmit = form.handleSubmit({
    schema: ldapLoginRequestSchema,
    input: { ...form.values, organisationId },
    mutate: (body) => ldapLogin(body),
    onSuccess: async (session) => {
      const failure = await completeSignIn(session, { next });
      if (failure) form.setFormError(failure);
    },
  });
  return (
    <AuthCard
      title={t('auth.ldap.title')}
      footer={
        <Typography variant="body2" sx={{ textAlign: 'center' }}>
          <Link component={RouterLink} to={withParams('/login', { next })}>
            {t('auth.ldap.withEmail')}
          </Link>
        </Typography>
      }
    >
      <StackedForm
        form={form}
        onSubmit={onSubmit}
        aria-label={t('auth.ldap.title')}
        submitLabel={t('auth.login.submit')}
        wide
      >
        <Typography color="text.secondary">{t('auth.ldap.intro')}</Typography>
        <TextInput
          {...form.field('username')}
          label={t('auth.ldap.username')}
          autoComplete="username"
          autoFocus
          fullWidth
        />
        <PasswordField
          {...form.field('password')}
          label={t('auth.password')}
          autoComplete="current-password"
          fullWidth
        />
      </StackedForm>
    </AuthCard>
  );
}
