import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../platform/database/schema.js';
import { contractDatabase, seedOrganisation } from '../../test-support/store-contract.js';
import { FakeOnboardingStore } from './fake-onboarding-store.js';
import { SqlOnboardingStore as SqlOnboardingStore } from './onboarding-store.js';
import type { OnboardingStore } from './onboarding-store-type.js';

/** The same cases over the fake and the SQL store (decision 030). */
const database = contractDatabase();
const implementations: [string, () => OnboardingStore][] = [
  ['fake', () => new FakeOnboardingStore()],
  ['SQL', () => new SqlOnboardingStore(database.db())],
];

describe.each(implementations)('OnboardingStore contract: %s', (_name, make) => {
  let store: OnboardingStore;
  let org: string;
  const userId = randomUUID();

  beforeAll(async () => {
    store = make();
    ({ organisationId: org } = await seedOrganisation(database.db()));
    await database
      .db()
      .insert(users)
      .values({ id: userId, email: `${userId}@example.com`, firstName: 'F', lastName: 'L' })
      .onConflictDoNothing();
  });

  it('keeps one state per person per organisation, created then replaced', async () => {
    expect(await store.get(userId, org)).toBeNull();
    await store.put(userId, org, { currentStep: 3, completed: false });
    await store.put(userId, org, { currentStep: 27, completed: true });
    expect(await store.get(userId, org)).toEqual({ currentStep: 27, completed: true });
  });
});
