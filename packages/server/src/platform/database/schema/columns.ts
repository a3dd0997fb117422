import { text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * Columns the tables of every area share. The references to a user, an organisation and a
 * workspace (userRef, organisationRef, workspaceRef) live in identity.ts beside their tables.
 */

export function id() {
  return text('id').primaryKey();
}

export function created() {
  return stamped('created_at');
}

export function at(name: string) {
  return timestamp(name, { withTimezone: true });
}

export function updated() {
  return stamped('updated_at');
}

/** When the row was made and last changed: created_at and updated_at. */
export function timestamps() {
  return { createdAt: created(), updatedAt: updated() };
}

/** When a run (or a task or step of it) started and finished; null until it does. */
export function runTimes() {
  return { startedAt: at('started_at'), finishedAt: at('finished_at') };
}

/** What people wrote about the row: `description text NOT NULL DEFAULT ''`. */
export function description() {
  return text('description').notNull().default('');
}

/** A timestamp set when the row is written: `<name> timestamptz NOT NULL DEFAULT now()`. */
export function stamped(name: string) {
  return timestamp(name, { withTimezone: true }).notNull().defaultNow();
}

/** The row this one belongs to (`<name> text NOT NULL REFERENCES …`): deleting that row deletes this one. */
export function parentRef(name: string, parent: () => AnyPgColumn) {
  return text(name).notNull().references(parent, { onDelete: 'cascade' });
}
