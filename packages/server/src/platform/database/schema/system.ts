import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row describing this installation: created on first start, counted on every start.
 * It is how an operator (and the restart test) can see that data survives a restart.
 */
export const instance = pgTable('instance', {
  id: text('id').primaryKey(),
  firstStartedAt: timestamp('first_started_at', { withTimezone: true }).notNull().defaultNow(),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }).notNull().defaultNow(),
  starts: integer('starts').notNull().default(1),
});
