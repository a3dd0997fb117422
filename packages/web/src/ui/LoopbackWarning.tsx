import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';

/** Whether a URL's host only reaches the machine it is used on (loopback or unspecified). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return false;
  }
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === '0.0.0.0' ||
    host === '::1' ||
    host === '::'
  );
}

/**
 * Warns that an address Slipway hands out (the agent's server URL, a webhook's payload URL) only
 * reaches this machine, and how an operator fixes it (SLIPWAY_PUBLIC_URL). `who` is who must reach
 * it: `agent` or `provider`. Nothing when the address is reachable from elsewhere.
 */
export function LoopbackWarning({ url, who }: { url: string; who: 'agent' | 'provider' }) {
  const { t } = useTranslation();
  if (!isLoopbackUrl(url)) return null;
  return (
    <Alert severity="warning" data-testid="loopback-warning">
      {t(`loopback.${who}`, { host: new URL(url).host })}
    </Alert>
  );
}
