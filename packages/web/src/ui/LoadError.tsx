import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import { errorMessage, type ApiError } from './api-error';
import { Button } from './Button';

/** A list or page that could not be loaded: what failed, the server's reason, and a retry. */
export function LoadError({
  what,
  error,
  onRetry,
  retrying = false,
}: {
  what: string;
  error: ApiError;
  onRetry: () => void;
  retrying?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      severity="error"
      data-testid="load-error"
      action={
        <Button color="inherit" size="small" loading={retrying} onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    >
      {what} {errorMessage(error)}
    </Alert>
  );
}
