import type { AppDb } from '../../platform/database/database.js';
import { onboardingRoutes } from './onboarding-routes.js';
import { OnboardingService } from './onboarding-service.js';
import { OnboardingStore } from './onboarding-store.js';

/** The one place the guided tour's server side is wired. */
export function onboardingFeature(db: AppDb) {
  return onboardingRoutes(new OnboardingService(new OnboardingStore(db)));
}
