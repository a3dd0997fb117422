import { sql } from 'drizzle-orm';
import type { PermissionGrant } from '@slipway/contracts';
import type {
  AccessStore,
  ServiceAccountRecord,
  SessionRecord,
  SessionWithStanding,
  WorkspaceStanding,
} from '../../platform/auth/access-store-type.js';
import type { AppDb, Database } from '../../platform/database/database.js';

type Row = Record<string, unknown>;
const rows = (r: unknown): Row[] => ((r as { rows?: Row[] }).rows ?? (r as Row[])) as Row[];
const date = (v: unknown) => (v == null ? null : v instanceof Date ? v : new Date(String(v)));

/** A session read with its person's email (`s.id, s.user_id, … u.email, … s.last_seen_at`). */
function sessionOf(r: Row): SessionRecord {
  return {
    id: String(r.id),
    userId: String(r.user_id),
    organisationId: String(r.organisation_id),
    email: String(r.email),
    fingerprint: (r.fingerprint as string | null) ?? null,
    expiresAt: date(r.expires_at)!,
    revokedAt: date(r.revoked_at),
    lastSeenAt: date(r.last_seen_at),
  };
}

/** A workspace standing from its columns: the workspace's organisation, the roles, the custom role's grants. */
function standingOf(
  organisationId: unknown,
  organisationRole: unknown,
  workspaceRole: unknown,
  grants: unknown,
): WorkspaceStanding {
  return {
    organisationId: String(organisationId),
    organisationRole: (organisationRole as string | null) ?? null,
    workspaceRole: (workspaceRole as string | null) ?? null,
    customGrants: (grants as PermissionGrant[] | null) ?? null,
  };
}

/** Every signed-in request runs this: the session, the organisation role and the workspace standing. */
const SESSION_STANDING_SQL = `
  SELECT s.id, s.user_id, s.organisation_id, u.email, s.fingerprint, s.expires_at, s.revoked_at, s.last_seen_at,
         own.role AS own_org_role,
         w.organisation_id AS ws_org, om.role AS ws_org_role, wm.role AS ws_role, r.grants
  FROM sessions s
  JOIN users u ON u.id = s.user_id
  LEFT JOIN organisation_members own ON own.organisation_id = s.organisation_id AND own.user_id = s.user_id
  LEFT JOIN workspaces w ON w.id = $2::text
  LEFT JOIN organisation_members om ON om.organisation_id = w.organisation_id AND om.user_id = s.user_id
  LEFT JOIN workspace_members wm ON wm.workspace_id = w.id AND wm.user_id = s.user_id
  LEFT JOIN roles r ON r.id = wm.role AND r.organisation_id = w.organisation_id
  WHERE s.id = $1`;

export class SqlAccessStore implements AccessStore {
  private readonly db: AppDb;
  constructor(private readonly database: Database) {
    this.db = database.db;
  }

  async findSession(id: string): Promise<SessionRecord | null> {
    const [r] = rows(
      await this.db.execute(sql`
        SELECT s.id, s.user_id, s.organisation_id, u.email, s.fingerprint, s.expires_at, s.revoked_at, s.last_seen_at
        FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ${id}`),
    );
    return r ? sessionOf(r) : null;
  }

  async findSessionWithStanding(id: string, workspaceId: string | null): Promise<SessionWithStanding | null> {
    const [r] = await this.database.prepared<Row>('slipway_session_standing', SESSION_STANDING_SQL, [
      id,
      workspaceId,
    ]);
    if (!r) return null;
    return {
      session: sessionOf(r),
      organisationRole: (r.own_org_role as string | null) ?? null,
      standing: r.ws_org == null ? null : standingOf(r.ws_org, r.ws_org_role, r.ws_role, r.grants),
    };
  }

  async touchSession(id: string) {
    await this.db.execute(sql`UPDATE sessions SET last_seen_at = now() WHERE id = ${id}`);
  }

  async findServiceAccountByTokenHash(hash: string): Promise<ServiceAccountRecord | null> {
    const [r] = rows(
      await this.db.execute(sql`
        SELECT id, organisation_id, name, expires_at, revoked_at, last_used_at
        FROM service_accounts WHERE token_hash = ${hash}`),
    );
    if (!r) return null;
    return {
      id: String(r.id),
      organisationId: String(r.organisation_id),
      name: String(r.name),
      expiresAt: date(r.expires_at)!,
      revokedAt: date(r.revoked_at),
      lastUsedAt: date(r.last_used_at),
    };
  }

  async touchServiceAccount(id: string) {
    await this.db.execute(sql`UPDATE service_accounts SET last_used_at = now() WHERE id = ${id}`);
  }

  async organisationRole(userId: string, organisationId: string) {
    const [r] = rows(
      await this.db.execute(sql`
        SELECT role FROM organisation_members WHERE user_id = ${userId} AND organisation_id = ${organisationId}`),
    );
    return r ? String(r.role) : null;
  }

  async userStanding(userId: string, workspaceId: string): Promise<WorkspaceStanding | null> {
    const [r] = rows(
      await this.db.execute(sql`
        SELECT w.organisation_id, om.role AS org_role, wm.role AS ws_role, r.grants
        FROM workspaces w
        LEFT JOIN organisation_members om ON om.organisation_id = w.organisation_id AND om.user_id = ${userId}
        LEFT JOIN workspace_members wm ON wm.workspace_id = w.id AND wm.user_id = ${userId}
        LEFT JOIN roles r ON r.id = wm.role AND r.organisation_id = w.organisation_id
        WHERE w.id = ${workspaceId}`),
    );
    return r ? standingOf(r.organisation_id, r.org_role, r.ws_role, r.grants) : null;
  }

  async serviceAccountStanding(
    serviceAccountId: string,
    workspaceId: string,
  ): Promise<WorkspaceStanding | null> {
    const [r] = rows(
      await this.db.execute(sql`
        SELECT w.organisation_id, saw.role AS ws_role, r.grants
        FROM workspaces w
        LEFT JOIN service_account_workspaces saw ON saw.workspace_id = w.id AND saw.service_account_id = ${serviceAccountId}
        LEFT JOIN roles r ON r.id = saw.role AND r.organisation_id = w.organisation_id
        WHERE w.id = ${workspaceId}`),
    );
    return r ? standingOf(r.organisation_id, null, r.ws_role, r.grants) : null;
  }
}
