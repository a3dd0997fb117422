import Alert, { type AlertColor } from '@mui/material/Alert';
import Box from '@mui/material/Box';

/**
 * A form's outcome. An error from the server is an alert, announced as it appears. A notice
 * ("We sent a new code") goes in a status region that is always present, so screen readers
 * announce it politely when it fills. Nothing is shown while there is no message.
 */
export function FormAlert({
  message,
  severity = 'error',
  testId,
}: {
  message: string | null | undefined;
  severity?: AlertColor;
  testId?: string;
}) {
  const alert = (role: string) =>
    message ? (
      <Alert severity={severity} role={role} data-testid={testId ?? `form-${severity}`} sx={{ mb: 2 }}>
        {message}
      </Alert>
    ) : null;
  if (severity === 'error') return alert('alert');
  return (
    <Box role="status" aria-atomic="true">
      {alert('none')}
    </Box>
  );
}
