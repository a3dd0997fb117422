import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { expect, vi } from 'vitest';
import { users } from '../../platform/database/schema.js';
import { addToOrganisation, createSignedInUser, signIn, type TestUser } from '../../test-support/identity.js';
import type { TestApp } from '../../test-support/test-app.js';

/** Audit rows of one action, newest last. */
export async function auditRows(t: TestApp, action: string) {
  const res = await t.db.database.db.execute(
    sql`SELECT action, outcome, target_type, target_id, organisation_id, actor_id, actor_type FROM audit_events WHERE action = ${action} ORDER BY id`,
  );
  return ((res as { rows?: unknown[] }).rows ?? res) as Array<Record<string, string | null>>;
}

/**
 * Waits until the audit trail holds a row of this action matching each of `matches`: the audit
 * hook writes after the answer is sent, so a test may look before the row is there.
 */
export async function expectAudited(t: TestApp, action: string, ...matches: Array<Record<string, unknown>>) {
  await vi.waitFor(
    async () => {
      const rows = await auditRows(t, action);
      for (const m of matches) expect(rows).toContainEqual(expect.objectContaining(m));
    },
    { timeout: 5000, interval: 20 },
  );
}

/** Runs SQL against the test database (to age an invite, read a hash...). */
export async function query(t: TestApp, q: ReturnType<typeof sql>) {
  const res = await t.db.database.db.execute(q);
  return ((res as { rows?: unknown[] }).rows ?? res) as Array<Record<string, unknown>>;
}

/**
 * A person who joins `owner`'s organisation with an organisation role (and a role in its default
 * workspace), signed in to that organisation.
 */
export async function joinAs(
  t: TestApp,
  owner: TestUser,
  role: string,
  workspaceRole?: string,
): Promise<TestUser> {
  const person = await createSignedInUser(t.app, t.db.database);
  await addToOrganisation(t.db.database, {
    userId: person.userId,
    organisationId: owner.organisationId,
    role,
    workspaceId: owner.workspaceId,
    workspaceRole,
  });
  await t.db.database.db
    .update(users)
    .set({ currentOrganisationId: owner.organisationId })
    .where(eq(users.id, person.userId));
  return signIn(t.app, { ...person, organisationId: owner.organisationId, workspaceId: owner.workspaceId });
}

/** The invite token from the last mail sent to this address (the outbox mailer writes .eml files). */
export function inviteTokenMailedTo(t: TestApp, email: string): string {
  const dir = path.join(t.config.dataDir, 'outbox');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(`-${email}.eml`))
    .sort();
  const last = files.at(-1);
  if (!last) throw new Error(`no mail to ${email}`);
  const text = readFileSync(path.join(dir, last), 'utf8')
    .replace(/=\r?\n/g, '')
    .replace(/=3D/gi, '=');
  const m = /set-password\?invite=([A-Za-z0-9_%-]+)/.exec(text);
  if (!m) throw new Error(`no invite link in the mail to ${email}`);
  return decodeURIComponent(m[1]!);
}
