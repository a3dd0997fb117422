import type { AppDb } from '../../platform/database/database.js';
import { workspaceMembers } from '../../platform/database/schema.js';

/** Gives the person `role` in the workspace: adds them, or changes the role of one already in it. */
export async function putWorkspaceRole(
  db: AppDb,
  workspaceId: string,
  userId: string,
  role: string,
): Promise<void> {
  await db
    .insert(workspaceMembers)
    .values({ workspaceId, userId, role })
    .onConflictDoUpdate({
      target: [workspaceMembers.workspaceId, workspaceMembers.userId],
      set: { role },
    });
}
