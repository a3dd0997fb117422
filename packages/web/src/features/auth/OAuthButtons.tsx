import Google from '@mui/icons-material/Google';
import Microsoft from '@mui/icons-material/Microsoft';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/api-error';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import {
  useOauthLoginUrlMutation,
  useOauthProvidersQuery,
  type OAuthIntent,
  type OAuthProviderId,
} from './api';
import { rememberNext } from './next-path';

const ICONS: Record<OAuthProviderId, typeof Google> = { google: Google, azure: Microsoft };

/** Leaves the app for the identity provider (a full page load, as the OpenID flow needs). */
export function goTo(url: string) {
  window.location.assign(url);
}

/**
 * "Sign in with G Suite" / "Sign in with Azure" (or "Sign up with …"): one button per provider
 * the server has enabled, and nothing at all when none is.
 */
export function OAuthButtons({ intent, next }: { intent: OAuthIntent; next: string | null }) {
  const { t } = useTranslation();
  const { data } = useOauthProvidersQuery();
  const [loginUrl, { isLoading, error, originalArgs }] = useOauthLoginUrlMutation();
  const providers = (data ?? []).filter((p) => p.id in ICONS);
  if (providers.length === 0) return null;

  async function start(provider: OAuthProviderId) {
    rememberNext(next);
    try {
      const { url } = await loginUrl({ provider, intent }).unwrap();
      goTo(url);
    } catch {
      // shown below from the mutation's error
    }
  }

  return (
    <Stack spacing={1.5} sx={{ mb: 3 }} data-testid="oauth-buttons">
      <FormAlert message={error ? errorMessage(error) : null} />
      {providers.map((p) => {
        const ProviderIcon = ICONS[p.id];
        return (
          <Button
            key={p.id}
            variant="outlined"
            fullWidth
            startIcon={<ProviderIcon aria-hidden />}
            loading={isLoading && originalArgs?.provider === p.id}
            onClick={() => void start(p.id)}
            data-testid={`oauth-${p.id}`}
          >
            {t(`auth.oauth.${intent}.${p.id}`)}
          </Button>
        );
      })}
      <Divider>{t('auth.or')}</Divider>
    </Stack>
  );
}
