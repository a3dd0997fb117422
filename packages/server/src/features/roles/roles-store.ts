import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import {
  invites,
  roles,
  serviceAccountWorkspaces,
  workspaceMembers,
  workspaces,
} from '../../platform/database/schema.js';
import { anyRow, firstRow, rowsWhere, updateById } from '../../platform/database/rows.js';
import type {
  NewRole,
  RoleChange,
  RolesStore as RolesStoreType,
  RoleLookup,
  RoleRow,
} from './roles-store-type.js';

export type { RoleLookup, RoleRow } from './roles-store-type.js';

/** SQL for custom roles. */
export class RolesStore implements RoleLookup, RolesStoreType {
  constructor(private readonly db: AppDb) {}

  async list(organisationId: string): Promise<RoleRow[]> {
    return rowsWhere(this.db, roles, eq(roles.organisationId, organisationId), asc(roles.name));
  }

  async get(organisationId: string, id: string): Promise<RoleRow | null> {
    return firstRow(this.db, roles, and(eq(roles.id, id), eq(roles.organisationId, organisationId)));
  }

  async customRoleExists(organisationId: string, id: string): Promise<boolean> {
    return (await this.get(organisationId, id)) !== null;
  }

  async nameTaken(organisationId: string, name: string, exceptId?: string): Promise<boolean> {
    const where = [eq(roles.organisationId, organisationId), sql`lower(${roles.name}) = lower(${name})`];
    return anyRow(this.db, roles, where, exceptId);
  }

  async create(row: NewRole) {
    await this.db.insert(roles).values(row);
  }

  async update(id: string, patch: RoleChange) {
    await updateById(this.db, roles, id, patch);
  }

  /** Deletes the role unless a member, service account or pending invite holds it; false when in use. */
  async deleteUnlessAssigned(organisationId: string, id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [locked] = await tx
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.id, id), eq(roles.organisationId, organisationId)))
        .for('update');
      if (!locked) return true;
      const inOrg = sql`(SELECT ${workspaces.id} FROM ${workspaces} WHERE ${workspaces.organisationId} = ${organisationId})`;
      // how many members or service accounts hold the role in the organisation's workspaces
      const holders = async (table: typeof workspaceMembers | typeof serviceAccountWorkspaces) => {
        const [r] = await tx
          .select({ n: sql<number>`count(*)` })
          .from(table)
          .where(and(eq(table.role, id), sql`${table.workspaceId} IN ${inOrg}`));
        return Number(r?.n);
      };
      const [i] = await tx
        .select({ n: sql<number>`count(*)` })
        .from(invites)
        .where(
          and(
            eq(invites.organisationId, organisationId),
            eq(invites.workspaceRole, id),
            isNull(invites.acceptedAt),
            isNull(invites.revokedAt),
          ),
        );
      const held = (await holders(workspaceMembers)) + (await holders(serviceAccountWorkspaces));
      if (held + Number(i?.n) > 0) return false;
      await tx.delete(roles).where(eq(roles.id, id));
      return true;
    });
  }
}
