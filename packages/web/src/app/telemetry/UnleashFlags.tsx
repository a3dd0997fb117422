import { FlagProvider } from '@unleash/proxy-client-react';
import { useEffect, useState, type ReactNode } from 'react';
import { EVENTS, UnleashClient, type IConfig } from 'unleash-proxy-client';
import type { UnleashSettings } from '@slipway/contracts';
import { FeatureFlagsContext, type FlagValues } from '../feature-flags';

/** Unleash's client settings from the runtime settings; further keys pass straight through. */
export function unleashConfig(settings: UnleashSettings): IConfig {
  const { enabled: _enabled, ...rest } = settings;
  return { ...rest, url: settings.url, clientKey: settings.clientKey, appName: settings.appName } as IConfig;
}

export function flagValues(client: Pick<UnleashClient, 'getAllToggles'>): FlagValues {
  return Object.fromEntries(client.getAllToggles().map((t) => [t.name, t.enabled]));
}

/**
 * Wraps the app in Unleash's FlagProvider (spec §4). The client's ready and update events
 * refresh the flag values the app reads through `useFeatureFlag`.
 */
export default function UnleashFlags({
  settings,
  client: given,
  children,
}: {
  settings: UnleashSettings;
  client?: UnleashClient;
  children: ReactNode;
}) {
  const [client] = useState(() => given ?? new UnleashClient(unleashConfig(settings)));
  const [flags, setFlags] = useState<FlagValues>({});
  useEffect(() => {
    const refresh = () => setFlags(flagValues(client));
    client.on(EVENTS.READY, refresh);
    client.on(EVENTS.UPDATE, refresh);
    return () => {
      client.off(EVENTS.READY, refresh);
      client.off(EVENTS.UPDATE, refresh);
    };
  }, [client]);
  return (
    <FlagProvider unleashClient={client} startClient>
      <FeatureFlagsContext.Provider value={flags}>{children}</FeatureFlagsContext.Provider>
    </FlagProvider>
  );
}
