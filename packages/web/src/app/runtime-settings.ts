import { defaultRuntimeSettings, runtimeSettingsSchema, type RuntimeSettings } from '@slipway/contracts';
import { runtimeSettingsUrl } from './endpoints';

/**
 * Fetches {origin}/config/config.json. Whatever goes wrong — the network, the status, the JSON,
 * the shape — is only logged to the console and the app continues with everything disabled
 * (spec §4, §8).
 */
export async function loadRuntimeSettings(
  url: string = runtimeSettingsUrl(),
  fetchImpl: typeof fetch = fetch,
): Promise<RuntimeSettings> {
  try {
    const response = await fetchImpl(url, { headers: { accept: 'application/json' }, cache: 'no-cache' });
    if (!response.ok) throw new Error(`config.json answered ${response.status}`);
    const parsed = runtimeSettingsSchema.safeParse(await response.json());
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`config.json ${issue?.path.join('.') || 'document'}: ${issue?.message ?? 'invalid'}`);
    }
    return parsed.data;
  } catch (err) {
    console.error('Failed to load runtime settings; optional services stay off.', err);
    return defaultRuntimeSettings;
  }
}
