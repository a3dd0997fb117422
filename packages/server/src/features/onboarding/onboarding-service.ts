import {
  nextTourState,
  TOUR_COMPLETED_SERVER_STEP,
  TOUR_OPENS_AT_SERVER_STEP,
  type OnboardingStateInput,
  type OnboardingStateView,
} from '@slipway/contracts';
import type { OnboardingStore } from './onboarding-store-type.js';

const FRESH: OnboardingStateView = { is_onboarding_completed: false, currentstep: 0 };

/** The moments of a tour the audit trail keeps: its start, a skip and its finish. */
export type TourMilestone = 'start' | 'skip' | 'finish';

/**
 * Which milestone a change of tour state is, or null for progress within the tour (a step) and
 * for a call that changed nothing. The tour starts when currentstep reaches the step it opens at
 * (4), or on a restart or reopening; completing it is a finish at the last server step (27) and
 * a skip before it.
 */
export function tourMilestone(
  before: OnboardingStateView,
  after: OnboardingStateView,
  input: OnboardingStateInput,
): TourMilestone | null {
  if (!before.is_onboarding_completed && after.is_onboarding_completed) {
    return after.currentstep >= TOUR_COMPLETED_SERVER_STEP ? 'finish' : 'skip';
  }
  if (input.restart || (before.is_onboarding_completed && !after.is_onboarding_completed)) return 'start';
  const opens = TOUR_OPENS_AT_SERVER_STEP;
  return before.currentstep < opens && after.currentstep >= opens ? 'start' : null;
}

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
