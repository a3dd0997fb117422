import { and, eq } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { onboardingStates } from '../../platform/database/schema.js';
import type { OnboardingStore, StoredTourState } from './onboarding-store-type.js';

export type { StoredTourState } from './onboarding-store-type.js';

/** One row per person per organisation in onboarding_states. */
export class SqlOnboardingStore implements OnboardingStore {
  constructor(private readonly db: AppDb) {}

  async get(userId: string, organisationId: string): Promise<StoredTourState | null> {
    const [row] = await this.db
      .select({ currentStep: onboardingStates.currentStep, completed: onboardingStates.completed })
      .from(onboardingStates)
      .where(and(eq(onboardingStates.userId, userId), eq(onboardingStates.organisationId, organisationId)));
    return row ?? null;
  }

  async put(userId: string, organisationId: string, state: StoredTourState): Promise<void> {
    await this.db
      .insert(onboardingStates)
      .values({ userId, organisationId, ...state, updatedAt: new Date() })
      .onConflictDoUpdate({
        target: [onboardingStates.userId, onboardingStates.organisationId],
        set: { ...state, updatedAt: new Date() },
      });
  }
}
