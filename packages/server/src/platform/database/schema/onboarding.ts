import { boolean, integer, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { updated } from './columns.js';
import { organisationRef, userRef } from './identity.js';

/** The guided tour (spec §2 "Guided first-run tour", §4 "Guided tour"). */

/** Where a user is in the guided tour, per organisation (admin/onboarding/{get,set}TourStatus). */
export const onboardingStates = pgTable(
  'onboarding_states',
  {
    userId: userRef(),
    organisationId: organisationRef(),
    /** the spec's server step (currentstep); the tour step is max(0, currentstep - 4) */
    currentStep: integer('current_step').notNull().default(0),
    completed: boolean('completed').notNull().default(false),
    updatedAt: updated(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.organisationId] })],
);
