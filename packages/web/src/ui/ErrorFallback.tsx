import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { FallbackProps } from 'react-error-boundary';
import { useTranslation } from 'react-i18next';
import { Button } from './Button';

/** The error boundary's fallback: "Something went wrong:", the message, and "Try again". */
export function ErrorFallback({ error, resetErrorBoundary }: FallbackProps) {
  const { t } = useTranslation();
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Box role="alert" data-testid="error-fallback" sx={{ p: 3, maxWidth: 720 }}>
      <Alert severity="error" sx={{ mb: 2 }}>
        <Typography component="p" fontWeight={600}>
          {t('errors.fallbackTitle')}
        </Typography>
        <Typography component="pre" sx={{ whiteSpace: 'pre-wrap', m: 0, fontFamily: 'monospace' }}>
          {message}
        </Typography>
      </Alert>
      <Button variant="contained" onClick={resetErrorBoundary}>
        {t('errors.tryAgain')}
      </Button>
    </Box>
  );
}
