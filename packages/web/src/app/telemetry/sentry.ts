import { SENTRY, type SentrySettings } from '@slipway/contracts';

/**
 * Error reporting with session replay (spec §1, §9). The Sentry SDK is only downloaded when
 * sentry.enabled, so installs that leave it off never load it.
 */
export async function initSentry(settings: SentrySettings): Promise<void> {
  const Sentry = await import('@sentry/react');
  Sentry.init({
    dsn: settings.dsn,
    environment: settings.environment,
    integrations: [
      Sentry.browserTracingIntegration(),
      Sentry.replayIntegration(),
      Sentry.httpClientIntegration({ failedRequestStatusCodes: SENTRY.failedRequestStatusCodes }),
      Sentry.captureConsoleIntegration(),
    ],
    tracesSampleRate: SENTRY.tracesSampleRate,
    replaysSessionSampleRate: SENTRY.replaysSessionSampleRate,
    replaysOnErrorSampleRate: SENTRY.replaysOnErrorSampleRate,
    // Console arguments and extra data are serialised this deep.
    normalizeDepth: SENTRY.consoleCaptureDepth,
  });
}
