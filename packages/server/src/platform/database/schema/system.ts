import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { stamped } from './columns.js';

/**
 * One row describing this installation: created on first start, counted on every start.
 * It is how an operator (and the restart test) can see that data survives a restart.
 */
export const instance = pgTable('instance', {
  id: text('id').primaryKey(),
  firstStartedAt: stamped('first_started_at'),
  lastStartedAt: stamped('last_started_at'),
  starts: integer('starts').notNull().default(1),
});
