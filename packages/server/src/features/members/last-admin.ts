import { isAdminRole } from '../../platform/auth/grants.js';

/**
 * Would this change leave the organisation without an admin (master admin or account admin)?
 * `next` is the member's new organisation role, or null when they leave the organisation.
 */
export function leavesNoAdmin(
  admins: ReadonlyArray<{ userId: string }>,
  userId: string,
  next: string | null,
) {
  if (next !== null && isAdminRole(next)) return false;
  return !admins.some((a) => a.userId !== userId);
}
