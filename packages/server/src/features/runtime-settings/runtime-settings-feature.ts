import type { Feature } from '../../platform/feature.js';
import { runtimeSettingsRoutes } from './runtime-settings-routes.js';
import { RuntimeSettingsService, type RuntimeSettingsLogger } from './runtime-settings-service.js';

export interface RuntimeSettingsFeatureDeps {
  /** SLIPWAY_CONFIG_FILE */
  file: string | undefined;
  log: RuntimeSettingsLogger;
}

export interface RuntimeSettingsExports {
  /** for the security headers (app.ts) */
  settings: RuntimeSettingsService;
}

/** The one place the runtime settings document and /config/config.json are wired. */
export function createRuntimeSettingsFeature(
  deps: RuntimeSettingsFeatureDeps,
): Feature<RuntimeSettingsExports> {
  const settings = new RuntimeSettingsService(deps.file, deps.log);
  return { name: 'runtime-settings', plugin: runtimeSettingsRoutes(settings), exports: { settings } };
}
