import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { CopyField, useCopy } from '../../ui/ShownOnceDialog';

/**
 * The organisation's directory sign-in link (`/login?ldap=<organisation id>`): where its people
 * sign in with their directory username and password. Shown once the directory is enabled.
 */
export function DirectoryLink({ organisationId }: { organisationId: string }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const { notice, copy } = useCopy('sso.link');
  const link = `${window.location.origin}/login?ldap=${encodeURIComponent(organisationId)}`;
  return (
    <Stack spacing={1} sx={{ mb: 3 }} data-testid="sso-directory-link">
      <Typography variant="body2" color="text.secondary">
        {t('sso.link.help')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }}>
        <CopyField inputRef={input} id="sso-directory-link-field" label={t('sso.link.label')} value={link} />
        <Button onClick={() => void copy(link, input.current)}>{t('sso.link.copy')}</Button>
      </Stack>
      <FormAlert message={notice} severity="success" />
    </Stack>
  );
}
