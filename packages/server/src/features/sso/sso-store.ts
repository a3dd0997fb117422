import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { SsoGroupRole } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import {
  organisationMembers,
  roles,
  ssoSettings,
  users,
  workspaces,
} from '../../platform/database/schema.js';
import { putWorkspaceRole } from '../members/workspace-role.js';

/** How Slipway secures the connection to the directory. */
export interface SsoTls {
  startTls: boolean;
  skipTlsVerify: boolean;
  /** PEM, or '' to trust the system's certificate authorities */
  caCertificate: string;
}
export const DEFAULT_TLS: SsoTls = { startTls: false, skipTlsVerify: false, caCertificate: '' };

/** A stored `tls` column value: null (or a missing field) means the default. */
function tlsOf(raw: unknown): SsoTls {
  return { ...DEFAULT_TLS, ...((raw ?? {}) as Partial<SsoTls>) };
}

/** What the `tls` column stores: null for plain defaults, else the settings. */
function tlsColumn(tls: SsoTls): SsoTls | null {
  const plain = !tls.startTls && !tls.skipTlsVerify && !tls.caCertificate;
  return plain ? null : tls;
}

/**
 * `group_roles` holds the group mappings (an array) and `tls` the TLS settings. For a while both
 * lived in `group_roles` as `{ groupRoles, tls }`; such a row is read as that (its nested TLS
 * settings count when the `tls` column is empty) and `settings` rewrites it to the two columns.
 */
export function decodeSsoColumns(
  groupRoles: unknown,
  tls: unknown,
): { groupRoles: SsoGroupRole[]; tls: SsoTls; legacy: boolean } {
  if (Array.isArray(groupRoles))
    return { groupRoles: groupRoles as SsoGroupRole[], tls: tlsOf(tls), legacy: false };
  const o = (groupRoles ?? {}) as { groupRoles?: SsoGroupRole[]; tls?: Partial<SsoTls> };
  return { groupRoles: o.groupRoles ?? [], tls: tlsOf(tls ?? o.tls), legacy: true };
}

export interface StoredSsoSettings {
  organisationId: string;
  enabled: boolean;
  url: string;
  bindDn: string;
  bindPasswordEncrypted: string;
  baseDn: string;
  userQuery: string;
  groupQuery: string;
  emailAttribute: string;
  groupRoles: SsoGroupRole[];
  tls: SsoTls;
  updatedAt: Date;
}

export type SsoUserRow = typeof users.$inferSelect;

/** A person a directory sign-in creates, and their role in the organisation. */
export interface DirectoryUser {
  email: string;
  firstName: string;
  lastName: string;
  organisationId: string;
  organisationRole: string;
}

/** The user row of a directory person: verified now, without a password, in their organisation. */
export function directoryUserRow(input: DirectoryUser): Omit<SsoUserRow, 'createdAt'> {
  return {
    id: randomUUID(),
    email: input.email,
    firstName: input.firstName,
    lastName: input.lastName,
    passwordHash: null,
    emailVerifiedAt: new Date(),
    currentOrganisationId: input.organisationId,
  };
}

/** SSO settings, and the people and memberships a directory sign-in creates. */
export interface SsoStore {
  settings(organisationId: string): Promise<StoredSsoSettings | null>;
  saveSettings(s: Omit<StoredSsoSettings, 'updatedAt'>): Promise<StoredSsoSettings>;
  /** ids of the organisation's workspaces and custom roles, to check group mappings */
  workspaceIds(organisationId: string): Promise<string[]>;
  customRoleIds(organisationId: string): Promise<string[]>;
  userByEmail(email: string): Promise<SsoUserRow | null>;
  organisationRole(userId: string, organisationId: string): Promise<string | null>;
  /** a verified person without a password who belongs to the organisation */
  createDirectoryUser(input: DirectoryUser): Promise<SsoUserRow>;
  setOrganisationRole(userId: string, organisationId: string, role: string): Promise<void>;
  setWorkspaceRole(userId: string, workspaceId: string, role: string): Promise<void>;
}

export class SqlSsoStore implements SsoStore {
  constructor(private readonly db: AppDb) {}

  async settings(organisationId: string): Promise<StoredSsoSettings | null> {
    const [row] = await this.db
      .select()
      .from(ssoSettings)
      .where(eq(ssoSettings.organisationId, organisationId));
    if (!row) return null;
    const { legacy, ...decoded } = decodeSsoColumns(row.groupRoles, row.tls);
    if (legacy) {
      // Move the interim nested shape to the two columns, unless someone saved meanwhile.
      await this.db
        .update(ssoSettings)
        .set({ groupRoles: decoded.groupRoles, tls: tlsColumn(decoded.tls) })
        .where(
          and(
            eq(ssoSettings.organisationId, organisationId),
            sql`jsonb_typeof(${ssoSettings.groupRoles}) = 'object'`,
          ),
        );
    }
    return { ...row, ...decoded };
  }

  async saveSettings(s: Omit<StoredSsoSettings, 'updatedAt'>): Promise<StoredSsoSettings> {
    const { tls, groupRoles, ...rest } = s;
    const values = { ...rest, groupRoles, tls: tlsColumn(tls), updatedAt: new Date() };
    await this.db
      .insert(ssoSettings)
      .values(values)
      .onConflictDoUpdate({ target: ssoSettings.organisationId, set: values });
    return { ...s, updatedAt: values.updatedAt };
  }

  async workspaceIds(organisationId: string) {
    return this.idsOf(workspaces, organisationId);
  }

  async customRoleIds(organisationId: string) {
    return this.idsOf(roles, organisationId);
  }

  /** The ids of an organisation's rows of a table. */
  private async idsOf(table: typeof workspaces | typeof roles, organisationId: string) {
    const rows = await this.db
      .select({ id: table.id })
      .from(table)
      .where(eq(table.organisationId, organisationId));
    return rows.map((r) => r.id);
  }

  async userByEmail(email: string) {
    const [u] = await this.db.select().from(users).where(eq(users.email, email)).limit(1);
    return u ?? null;
  }

  async organisationRole(userId: string, organisationId: string) {
    const [m] = await this.db
      .select({ role: organisationMembers.role })
      .from(organisationMembers)
      .where(
        and(eq(organisationMembers.userId, userId), eq(organisationMembers.organisationId, organisationId)),
      );
    return m?.role ?? null;
  }

  async createDirectoryUser(input: DirectoryUser) {
    const row = directoryUserRow(input);
    await this.db.transaction(async (tx) => {
      await tx.insert(users).values(row);
      await tx
        .insert(organisationMembers)
        .values({ organisationId: input.organisationId, userId: row.id, role: input.organisationRole });
    });
    return { ...row, createdAt: new Date() };
  }

  async setOrganisationRole(userId: string, organisationId: string, role: string) {
    await this.db
      .update(organisationMembers)
      .set({ role })
      .where(
        and(eq(organisationMembers.userId, userId), eq(organisationMembers.organisationId, organisationId)),
      );
  }

  async setWorkspaceRole(userId: string, workspaceId: string, role: string) {
    await putWorkspaceRole(this.db, workspaceId, userId, role);
  }
}
