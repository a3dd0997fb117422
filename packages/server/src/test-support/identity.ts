import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AuthStore } from '../features/auth/auth-store.js';
import { hashPassword } from '../features/auth/passwords.js';
import type { Database } from '../platform/database/database.js';

export const TEST_PASSWORD = 'Sl1pway!pass';

export interface TestUser {
  userId: string;
  email: string;
  organisationId: string;
  /** the default workspace of the user's own organisation */
  workspaceId: string;
  token: string;
  /** authorization + x-workspace-id headers for app.inject */
  headers: Record<string, string>;
}

let counter = 0;

/**
 * A verified person with their own organisation (as master admin) and its default workspace,
 * signed in through the real /api/auth/login.
 */
export async function createSignedInUser(
  app: FastifyInstance,
  database: Database,
  options: { email?: string; firstName?: string } = {},
): Promise<TestUser> {
  const store = new AuthStore(database.db);
  const userId = randomUUID();
  const organisationId = randomUUID();
  const workspaceId = randomUUID();
  const email = options.email ?? `user${++counter}-${userId.slice(0, 8)}@example.com`;
  await store.createUserWithOrganisation({
    userId,
    email,
    firstName: options.firstName ?? 'Test',
    lastName: 'User',
    passwordHash: await hashPassword(TEST_PASSWORD),
    emailVerified: true,
    organisationId,
    organisationName: `Org of ${email}`,
    workspaceId,
  });
  return signIn(app, { userId, email, organisationId, workspaceId });
}

/** Signs an existing person in with TEST_PASSWORD. */
export async function signIn(
  app: FastifyInstance,
  who: { userId: string; email: string; organisationId: string; workspaceId: string },
): Promise<TestUser> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: who.email, password: TEST_PASSWORD },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const { token } = res.json() as { token: string };
  return { ...who, token, headers: { authorization: `Bearer ${token}`, 'x-workspace-id': who.workspaceId } };
}

/**
 * Adds an existing person to another organisation with a role, and optionally to one of its
 * workspaces with a workspace role (built-in name or custom role id).
 */
export async function addToOrganisation(
  database: Database,
  input: {
    userId: string;
    organisationId: string;
    role: string;
    workspaceId?: string;
    workspaceRole?: string;
  },
) {
  const { organisationMembers } = await import('../platform/database/schema.js');
  await database.db
    .insert(organisationMembers)
    .values({ organisationId: input.organisationId, userId: input.userId, role: input.role });
  if (input.workspaceId && input.workspaceRole) {
    await new AuthStore(database.db).addWorkspaceMember(input.workspaceId, input.userId, input.workspaceRole);
  }
}
