import type { PermissionGrant } from '@slipway/contracts';
import type { roles } from '../../platform/database/schema.js';

/** Tells whether a name is a workspace role of an organisation: built-in or one of its custom roles. */
export interface RoleLookup {
  customRoleExists(organisationId: string, id: string): Promise<boolean>;
}
export type RoleRow = typeof roles.$inferSelect;

/** What an edit sets of a custom role. */
export interface RoleChange {
  name: string;
  description: string;
  grants: PermissionGrant[];
}

/** A custom role to store: its id, its organisation and what an edit may change. */
export type NewRole = RoleChange & { id: string; organisationId: string };

/** What the roles and workspace members services need of storage; RolesStore (SQL) and FakeRolesStore implement it. */
export interface RolesStore extends RoleLookup {
  /** An organisation's custom roles by name. */
  list(organisationId: string): Promise<RoleRow[]>;
  get(organisationId: string, id: string): Promise<RoleRow | null>;
  /** Is the name held by another of the organisation's roles, ignoring case? */
  nameTaken(organisationId: string, name: string, exceptId?: string): Promise<boolean>;
  /** Throws a unique violation when the organisation already has a role of that exact name. */
  create(row: NewRole): Promise<void>;
  update(id: string, patch: RoleChange): Promise<void>;
  /** Deletes the role unless a member, service account or pending invite holds it; false when in use. */
  deleteUnlessAssigned(organisationId: string, id: string): Promise<boolean>;
}
