import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { RegistryInfo } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { QueryPending } from '../../ui/QueryPending';
import { Section } from '../../ui/Section';
import { useCopy } from '../../ui/ShownOnceDialog';
import { useRegistryQuery } from './api';
import { CODE_SX } from './format';

/** An example image under the workspace's prefix, as the commands name it. */
const EXAMPLE = 'my-app:v1';

/** How buildah logs in, builds and pushes an image under the prefix. */
export function buildahCommands(info: RegistryInfo): string {
  const tls = info.insecure ? ' --tls-verify=false' : '';
  return [
    info.login,
    `buildah bud -t ${info.prefix}/${EXAMPLE} .`,
    `buildah push${tls} ${info.prefix}/${EXAMPLE}`,
  ].join('\n');
}

/** The same with docker (which takes plain HTTP only for a registry its daemon lists as insecure). */
export function dockerCommands(info: RegistryInfo): string {
  return [
    `docker login -u x ${info.host}`,
    `docker build -t ${info.prefix}/${EXAMPLE} .`,
    `docker push ${info.prefix}/${EXAMPLE}`,
  ].join('\n');
}

function Commands({ id, title, text }: { id: string; title: string; text: string }) {
  return (
    <Box sx={{ display: 'grid', gap: 0.5, minWidth: 0 }}>
      <Typography variant="subtitle2" component="h4" id={`${id}-title`}>
        {title}
      </Typography>
      <Box
        component="pre"
        dir="ltr"
        data-testid={id}
        sx={{ ...CODE_SX, m: 0, p: 1.5, borderRadius: 1, bgcolor: 'action.hover', fontSize: '0.875rem' }}
      >
        {text}
      </Box>
    </Box>
  );
}

/**
 * Slipway's own registry (decision 031): the workspace's image prefix to copy, a note when it is
 * served over plain HTTP, and how to log in and push with a service account token.
 */
export function RegistryCard() {
  const { t } = useTranslation();
  const query = useRegistryQuery();
  const input = useRef<HTMLInputElement>(null);
  const { notice, copy } = useCopy('registries.slipway');
  const info = query.data;
  return (
    <Section id="registry-slipway-title" title={t('registries.slipway.title')}>
      {!info ? (
        <QueryPending query={query} what={t('registries.slipway.loadError')} lines={3} />
      ) : (
        <Box sx={{ display: 'grid', gap: 2 }} data-testid="registry-card">
          <Typography color="text.secondary">{t('registries.slipway.intro')}</Typography>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
            <TextField
              inputRef={input}
              id="registry-prefix"
              label={t('registries.slipway.prefix')}
              value={info.prefix}
              sx={{ flex: '1 1 16rem', minWidth: 0 }}
              slotProps={{
                htmlInput: { readOnly: true, dir: 'ltr', 'data-testid': 'registry-prefix' },
                input: { sx: { fontFamily: 'monospace' } },
              }}
              onFocus={(e) => e.target.select()}
            />
            <Button startIcon={<ContentCopy />} onClick={() => void copy(info.prefix, input.current)}>
              {t('registries.slipway.copy')}
            </Button>
          </Box>
          <FormAlert message={notice} severity="info" />
          {info.insecure ? (
            <Alert severity="info" data-testid="registry-insecure" sx={{ overflowWrap: 'anywhere' }}>
              {t('registries.slipway.insecure', { host: info.host })}
            </Alert>
          ) : null}
          <Box component="section" aria-labelledby="registry-howto-title" sx={{ display: 'grid', gap: 1.5 }}>
            <Typography id="registry-howto-title" variant="subtitle1" component="h3">
              {t('registries.slipway.howTo')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('registries.slipway.howToBody')}{' '}
              <Link component={RouterLink} to="/settings/service-accounts">
                {t('registries.slipway.serviceAccounts')}
              </Link>
            </Typography>
            <Box
              sx={{
                display: 'grid',
                gap: 2,
                gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' },
              }}
            >
              <Commands
                id="registry-buildah"
                title={t('registries.slipway.buildah')}
                text={buildahCommands(info)}
              />
              <Commands
                id="registry-docker"
                title={t('registries.slipway.docker')}
                text={dockerCommands(info)}
              />
            </Box>
          </Box>
        </Box>
      )}
    </Section>
  );
}
