import { text, timestamp } from 'drizzle-orm/pg-core';
import { workspaces } from './identity.js';

/**
 * Columns the tables of every area share. Function declarations, not arrow constants: identity.ts
 * (which holds `workspaces`) uses them too, and a declaration is ready before either module runs.
 */

export function id() {
  return text('id').primaryKey();
}

export function created() {
  return timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
}

export function at(name: string) {
  return timestamp(name, { withTimezone: true });
}

export function updated() {
  return timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
}

/** The workspace a row belongs to: deleting the workspace deletes the row. */
export function workspaceRef() {
  return text('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });
}
