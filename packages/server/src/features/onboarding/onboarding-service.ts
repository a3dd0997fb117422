import { nextTourState, type OnboardingStateInput, type OnboardingStateView } from '@slipway/contracts';
import type { OnboardingStore } from './onboarding-store-type.js';

const FRESH: OnboardingStateView = { is_onboarding_completed: false, currentstep: 0 };

/**
 * The guided tour's server side (spec §4), per person per organisation. The rules (forward only
 * unless restarted; step 27 completes) are nextTourState's, shared with the web app's test peer.
 */
export class OnboardingService {
  constructor(private readonly store: OnboardingStore) {}

  async status(userId: string, organisationId: string): Promise<OnboardingStateView> {
    const row = await this.store.get(userId, organisationId);
    return row ? { is_onboarding_completed: row.completed, currentstep: row.currentStep } : FRESH;
  }

  async setStatus(
    userId: string,
    organisationId: string,
    input: OnboardingStateInput,
  ): Promise<{ before: OnboardingStateView; after: OnboardingStateView }> {
    const before = await this.status(userId, organisationId);
    const after = nextTourState(before, input);
    if (
      after.currentstep !== before.currentstep ||
      after.is_onboarding_completed !== before.is_onboarding_completed
    ) {
      await this.store.put(userId, organisationId, {
        currentStep: after.currentstep,
        completed: after.is_onboarding_completed,
      });
    }
    return { before, after };
  }
}
