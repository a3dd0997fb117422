import type { StoredTourState } from './onboarding-store.js';
import type { OnboardingStore } from './onboarding-store-type.js';

/** Tour states in memory, one per person per organisation, as the SQL upsert keeps them. */
export class FakeOnboardingStore implements OnboardingStore {
  private readonly states = new Map<string, StoredTourState>();
  /** how many times a state was written */
  writes = 0;

  async get(userId: string, organisationId: string) {
    const s = this.states.get(`${userId} ${organisationId}`);
    return s ? { ...s } : null;
  }

  async put(userId: string, organisationId: string, state: StoredTourState) {
    this.writes++;
    this.states.set(`${userId} ${organisationId}`, {
      currentStep: state.currentStep,
      completed: state.completed,
    });
  }
}
