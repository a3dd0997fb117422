import type { Feature } from '../../platform/feature.js';
import { quickSetupRoutes } from './quick-setup-routes.js';
import { QuickSetupService, type QuickSetupLinks } from './quick-setup-service.js';

export type QuickSetupFeatureDeps = QuickSetupLinks;

export interface QuickSetupExports {
  service: QuickSetupService;
}

/** The one place quick setup is wired: it makes its resources through the other features' services. */
export function createQuickSetupFeature(deps: QuickSetupFeatureDeps): Feature<QuickSetupExports> {
  const service = new QuickSetupService(deps);
  return { name: 'quick-setup', plugin: quickSetupRoutes(service), exports: { service } };
}
