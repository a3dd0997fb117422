import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { RuntimeSettings } from '@slipway/contracts';
import { FeaturesContext } from './features-context';
import { loadRuntimeSettings } from './runtime-settings';
import { loadHeap } from './telemetry/heap';
import { initSentry } from './telemetry/sentry';

const UnleashFlags = lazy(() => import('./telemetry/UnleashFlags'));

/** Switches on the optional services the settings ask for. A failure here never stops the app. */
export function startOptionalServices(settings: RuntimeSettings) {
  if (settings.sentry.enabled) {
    initSentry(settings.sentry).catch((err: unknown) =>
      console.error('Error reporting failed to start', err),
    );
  }
  if (settings.heapAnalytics.enabled && settings.heapAnalytics.key) {
    loadHeap(settings.heapAnalytics.key);
  }
}

/**
 * Start-up (spec §4): plain "Loading..." while the runtime settings are fetched; loaded when the
 * fetch ends, whether it succeeded or failed. Then the app, inside Unleash's provider when the
 * feature-flag service is enabled, otherwise directly.
 */
export function Startup({
  children,
  load = loadRuntimeSettings,
}: {
  children: ReactNode;
  load?: () => Promise<RuntimeSettings>;
}) {
  const { t } = useTranslation();
  const [settings, setSettings] = useState<RuntimeSettings | null>(null);
  useEffect(() => {
    let live = true;
    void load().then((s) => {
      if (!live) return;
      startOptionalServices(s);
      setSettings(s);
    });
    return () => {
      live = false;
    };
  }, [load]);

  const loading = <div data-testid="startup-loading">{t('app.loading')}</div>;
  if (!settings) return loading;
  const app = <FeaturesContext.Provider value={settings}>{children}</FeaturesContext.Provider>;
  if (!settings.unleash.enabled) return app;
  return (
    <Suspense fallback={loading}>
      <UnleashFlags settings={settings.unleash}>{app}</UnleashFlags>
    </Suspense>
  );
}
