import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import { onboardingRoutes } from './onboarding-routes.js';
import { OnboardingService } from './onboarding-service.js';
import { SqlOnboardingStore } from './onboarding-store.js';

export interface OnboardingFeatureDeps {
  db: AppDb;
}

/** The one place the guided tour's server side is wired. */
export function createOnboardingFeature(deps: OnboardingFeatureDeps): Feature {
  const service = new OnboardingService(new SqlOnboardingStore(deps.db));
  return { name: 'onboarding', plugin: onboardingRoutes(service), exports: {} };
}
