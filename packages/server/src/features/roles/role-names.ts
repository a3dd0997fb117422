import { BUILTIN_WORKSPACE_ROLES } from '@slipway/contracts';
import { InputError } from '../../platform/errors.js';
import type { RoleLookup } from './roles-store.js';

export function isBuiltinWorkspaceRole(role: string): boolean {
  return (BUILTIN_WORKSPACE_ROLES as readonly string[]).includes(role);
}

/** A workspace role must be built-in or a custom role of the same organisation. */
export async function assertWorkspaceRole(
  lookup: RoleLookup,
  organisationId: string,
  role: string,
  path = 'role',
) {
  if (isBuiltinWorkspaceRole(role)) return;
  if (await lookup.customRoleExists(organisationId, role)) return;
  const message = `Unknown role: use ${BUILTIN_WORKSPACE_ROLES.join(', ')} or a custom role of this organisation`;
  throw new InputError(message, [{ path, message }]);
}
