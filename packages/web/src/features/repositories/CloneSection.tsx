import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Repository } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { isLoopbackUrl } from '../../ui/LoopbackWarning';
import { Section } from '../../ui/Section';
import { useCopy } from '../../ui/ShownOnceDialog';

/** The user name git sends with a token as its password (the server reads only the password). */
export const GIT_USER = 'x-token';

/** A clone URL carrying a token as HTTP Basic credentials: `http://x-token:<token>@host/…`. */
export function urlWithToken(url: string, token: string): string {
  return url.replace(/^(https?:\/\/)/, `$1${GIT_USER}:${token}@`);
}

/** The git commands that clone a hosted repository with a token and push its default branch. */
export function gitCommands(repository: Repository, token = '<token>'): string {
  return [
    `git clone ${urlWithToken(repository.url, token)}`,
    `cd ${repository.name}`,
    'git add .',
    'git commit -m "First commit"',
    `git push origin ${repository.defaultBranch}`,
  ].join('\n');
}

/** Monospace text that stays left-to-right in Arabic and wraps anywhere on a phone. */
export const CODE_SX = {
  fontFamily: 'monospace',
  overflowWrap: 'anywhere',
  whiteSpace: 'pre-wrap',
} as const;

/**
 * Where to clone a repository from: its URL with a copy button and, when that address only
 * reaches this machine, a warning; for a hosted one, how to clone and push with a token.
 */
export function CloneSection({ repository }: { repository: Repository }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const { notice, copy } = useCopy('repositories.detail');
  const loopbackHost = isLoopbackUrl(repository.url) ? new URL(repository.url).host : null;
  const hosted = repository.kind === 'hosted';
  return (
    <Section id="repository-clone-title" title={t('repositories.detail.clone')}>
      <Box sx={{ display: 'grid', gap: 2 }}>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <TextField
            inputRef={input}
            id="repository-clone-url"
            label={t('repositories.detail.cloneUrl')}
            value={repository.url}
            sx={{ flex: '1 1 16rem', minWidth: 0 }}
            slotProps={{
              htmlInput: { readOnly: true, dir: 'ltr', 'data-testid': 'repository-clone-url' },
              input: { sx: { fontFamily: 'monospace' } },
            }}
            onFocus={(e) => e.target.select()}
          />
          <Button startIcon={<ContentCopy />} onClick={() => void copy(repository.url, input.current)}>
            {t('repositories.detail.copy')}
          </Button>
        </Box>
        <FormAlert message={notice} severity="info" />
        {loopbackHost ? (
          <Alert severity="warning" data-testid="loopback-warning">
            {t('repositories.detail.loopback', { host: loopbackHost })}
          </Alert>
        ) : null}
        {hosted ? (
          <Box component="section" aria-labelledby="repository-howto-title" sx={{ display: 'grid', gap: 1 }}>
            <Typography id="repository-howto-title" variant="subtitle1" component="h3">
              {t('repositories.detail.howTo')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('repositories.detail.howToBody')}
            </Typography>
            <Box
              component="pre"
              dir="ltr"
              data-testid="repository-git-commands"
              sx={{
                ...CODE_SX,
                m: 0,
                p: 1.5,
                borderRadius: 1,
                bgcolor: 'action.hover',
                fontSize: '0.875rem',
              }}
            >
              {gitCommands(repository)}
            </Box>
            <Typography variant="body2" color="text.secondary">
              {t('repositories.detail.howToPipeline')}
            </Typography>
          </Box>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t('repositories.detail.externalHelp')}
          </Typography>
        )}
      </Box>
    </Section>
  );
}
