import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../platform/database/database.js';
import { users } from '../../platform/database/schema.js';
import { addToOrganisation, createSignedInUser, signIn, type TestUser } from '../../test-support/identity.js';

/** A person with a built-in workspace role in the owner's workspace, signed in there. */
export async function memberOf(
  app: FastifyInstance,
  database: Database,
  owner: TestUser,
  workspaceRole: 'viewer' | 'developer' | 'project_admin',
): Promise<TestUser> {
  const someone = await createSignedInUser(app, database);
  await addToOrganisation(database, {
    userId: someone.userId,
    organisationId: owner.organisationId,
    role: 'member',
    workspaceId: owner.workspaceId,
    workspaceRole,
  });
  await database.db
    .update(users)
    .set({ currentOrganisationId: owner.organisationId })
    .where(eq(users.id, someone.userId));
  return signIn(app, { ...someone, organisationId: owner.organisationId, workspaceId: owner.workspaceId });
}
