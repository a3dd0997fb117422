import { z } from 'zod';

/**
 * The runtime settings document served at `{origin}/config/config.json` (spec §3, §7).
 * Every section is optional in the file; a missing section means "disabled".
 */
export const heapAnalyticsSettingsSchema = z.object({
  enabled: z.boolean().default(false),
  key: z.string().default(''),
});

export const sentrySettingsSchema = z.object({
  enabled: z.boolean().default(false),
  dsn: z.string().default(''),
  environment: z.string().default('production'),
});

/** Unleash keeps unknown keys: they are further settings handed to the feature-flag provider (spec §3). */
export const unleashSettingsSchema = z.looseObject({
  enabled: z.boolean().default(false),
  url: z.string().default(''),
  clientKey: z.string().default(''),
  appName: z.string().default('slipway'),
  /** seconds between flag refreshes, as Unleash's client expects */
  refreshInterval: z.number().int().positive().default(15),
});

export const runtimeSettingsSchema = z.object({
  heapAnalytics: heapAnalyticsSettingsSchema.prefault({}),
  sentry: sentrySettingsSchema.prefault({}),
  unleash: unleashSettingsSchema.prefault({}),
});

export type HeapAnalyticsSettings = z.infer<typeof heapAnalyticsSettingsSchema>;
export type SentrySettings = z.infer<typeof sentrySettingsSchema>;
export type UnleashSettings = z.infer<typeof unleashSettingsSchema>;
export type RuntimeSettings = z.infer<typeof runtimeSettingsSchema>;

/** The document served when no settings file is configured: everything disabled. */
export const defaultRuntimeSettings: RuntimeSettings = runtimeSettingsSchema.parse({});
