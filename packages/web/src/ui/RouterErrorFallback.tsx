import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** What the router error describes: a status and status text, or a message and a stack. */
export function describeRouteError(error: unknown): { heading: string; detail?: string } {
  if (isRouteErrorResponse(error)) return { heading: `${error.status} ${error.statusText}` };
  if (error instanceof Error)
    return { heading: error.message, ...(error.stack ? { detail: error.stack } : {}) };
  return { heading: String(error) };
}

/** The router's default fallback: "Unexpected Application Error" (spec §2). */
export function RouterErrorFallback() {
  const { t } = useTranslation();
  const { heading, detail } = describeRouteError(useRouteError());
  return (
    <Box role="alert" data-testid="router-error" sx={{ p: { xs: 3, md: 6 }, maxWidth: 900 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('errors.routerTitle')}
      </Typography>
      <Typography variant="h6" component="h2" color="text.secondary" gutterBottom>
        {heading}
      </Typography>
      {detail ? (
        <Box
          component="pre"
          sx={{ p: 2, bgcolor: 'action.hover', borderRadius: 1, overflow: 'auto', fontSize: 12 }}
        >
          {detail}
        </Box>
      ) : null}
      <Link href="/dashboard">{t('errors.goHome')}</Link>
    </Box>
  );
}
