export interface StoredTourState {
  currentStep: number;
  completed: boolean;
}

/** What the onboarding service needs of storage; OnboardingStore (SQL) and FakeOnboardingStore implement it. */
export interface OnboardingStore {
  /** The person's tour state in the organisation, or null before their first change. */
  get(userId: string, organisationId: string): Promise<StoredTourState | null>;
  /** Creates or replaces the person's tour state in the organisation. */
  put(userId: string, organisationId: string, state: StoredTourState): Promise<void>;
}
