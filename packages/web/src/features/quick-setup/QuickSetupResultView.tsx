import CheckCircle from '@mui/icons-material/CheckCircle';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { QuickSetupResult } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { isLoopbackUrl } from '../../ui/LoopbackWarning';
import { CopyField, useCopy } from '../../ui/ShownOnceDialog';

/** One fact of the result: its term and what it is. */
function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" color="text.secondary" sx={{ fontWeight: 500 }}>
        {term}
      </Typography>
      <Box component="dd" sx={{ m: 0, minWidth: 0, display: 'grid', gap: 1, justifyItems: 'start' }}>
        {children}
      </Box>
    </>
  );
}

/** Monospace text that stays left-to-right in Arabic (an address, an image, a commit). */
function Code({ children }: { children: ReactNode }) {
  return (
    <Box component="code" dir="ltr" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
      {children}
    </Box>
  );
}

/**
 * What quick setup made: the application, the repository (its clone URL to copy, its seed
 * commit), the pipeline, the image and the secrets, with what may stop the first run on this
 * server, and the way on to that run.
 */
export function QuickSetupResultView({
  result,
  name,
  templateName,
  onAnother,
}: {
  result: QuickSetupResult;
  name: string;
  templateName: string;
  onAnother: () => void;
}) {
  const { t } = useTranslation();
  const cloneInput = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // the form that was focused is gone: the outcome takes the focus (and comes into view)
  useEffect(() => heading.current?.focus(), []);
  const { notice, copy } = useCopy('quickSetup.result');
  const loopbackHost = isLoopbackUrl(result.repositoryUrl) ? new URL(result.repositoryUrl).host : null;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="quick-setup-result-title"
      data-testid="quick-setup-result"
      sx={{ p: { xs: 2, md: 3 }, maxWidth: 760 }}
    >
      <Stack spacing={2}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <CheckCircle color="success" aria-hidden />
          <Typography
            id="quick-setup-result-title"
            ref={heading}
            tabIndex={-1}
            variant="h6"
            component="h2"
            sx={{ '&:focus': { outline: 'none' } }}
          >
            {t('quickSetup.result.title', { name })}
          </Typography>
        </Stack>
        <Typography color="text.secondary">
          {t('quickSetup.result.template', { template: templateName })}
        </Typography>
        {result.warnings.map((warning) => (
          <Alert key={warning} severity="warning" data-testid="quick-setup-warning">
            {warning}
          </Alert>
        ))}
        <Box
          component="dl"
          sx={{
            m: 0,
            display: 'grid',
            columnGap: 3,
            rowGap: { xs: 0.5, sm: 2 },
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'max-content minmax(0, 1fr)' },
            '& dd': { mb: { xs: 1.5, sm: 0 } },
          }}
        >
          <Fact term={t('quickSetup.result.application')}>
            <Typography>{name}</Typography>
            <Link component={RouterLink} to={`/applications/${result.applicationId}`}>
              {t('quickSetup.result.openApplication')}
            </Link>
          </Fact>
          <Fact term={t('quickSetup.result.repository')}>
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', width: '100%' }}>
              <Box sx={{ flex: '1 1 16rem', minWidth: 0 }}>
                <CopyField
                  inputRef={cloneInput}
                  id="quick-setup-clone-url"
                  label={t('quickSetup.result.cloneUrl')}
                  value={result.repositoryUrl}
                />
              </Box>
              <Button
                startIcon={<ContentCopy />}
                onClick={() => void copy(result.repositoryUrl, cloneInput.current)}
              >
                {t('quickSetup.result.copy')}
              </Button>
            </Box>
            <FormAlert message={notice} severity="info" />
            {loopbackHost ? (
              <Alert severity="warning" data-testid="loopback-warning">
                {t('quickSetup.result.loopback', { host: loopbackHost })}
              </Alert>
            ) : null}
            <Typography variant="body2" data-testid="quick-setup-commit">
              {result.commit ? (
                <span title={result.commit}>
                  {t('quickSetup.result.commit', { commit: result.commit.slice(0, 7) })}
                </span>
              ) : (
                t('quickSetup.result.notSeeded')
              )}
            </Typography>
          </Fact>
          <Fact term={t('quickSetup.result.pipeline')}>
            <Link component={RouterLink} to={`/pipelines/${result.pipelineId}`}>
              {t('quickSetup.result.openPipeline')}
            </Link>
          </Fact>
          <Fact term={t('quickSetup.result.image')}>
            <Code>{result.image}</Code>
          </Fact>
          <Fact term={t('quickSetup.result.secrets')}>
            {result.secrets.length ? (
              <Box component="ul" sx={{ m: 0, paddingInlineStart: 2.5 }}>
                {result.secrets.map((secret) => (
                  <li key={secret}>
                    <Code>{secret}</Code>
                  </li>
                ))}
              </Box>
            ) : (
              <Typography>{t('quickSetup.result.noSecrets')}</Typography>
            )}
          </Fact>
        </Box>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          <Button variant="contained" component={RouterLink} to={`/pipelines/runs/${result.runId}`}>
            {t('quickSetup.result.viewRun')}
          </Button>
          <Button onClick={onAnother}>{t('quickSetup.result.another')}</Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
