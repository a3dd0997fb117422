import { text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Columns the tables of every area share. The references to a user, an organisation and a
 * workspace (userRef, organisationRef, workspaceRef) live in identity.ts beside their tables.
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
