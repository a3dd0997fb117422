import type { PermissionGrant } from '@slipway/contracts';

export interface SessionRecord {
  id: string;
  userId: string;
  organisationId: string;
  email: string;
  fingerprint: string | null;
  expiresAt: Date;
  revokedAt: Date | null;
  lastSeenAt: Date | null;
}

export interface ServiceAccountRecord {
  id: string;
  organisationId: string;
  name: string;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** A caller's standing in one workspace. */
export interface WorkspaceStanding {
  organisationId: string;
  /** the user's organisation role; null for service accounts and non-members */
  organisationRole: string | null;
  /** built-in role name or custom role id; null when not a member of the workspace */
  workspaceRole: string | null;
  /** the custom role's grants when workspaceRole names one */
  customGrants: PermissionGrant[] | null;
}

/** A session with, in the same read, the caller's organisation role and workspace standing. */
export interface SessionWithStanding {
  session: SessionRecord;
  /** the role in the session's organisation */
  organisationRole: string | null;
  /** the standing in the asked workspace; null when no workspace was asked or it does not exist */
  standing: WorkspaceStanding | null;
}

/** What access control reads on every request; the access feature's SqlAccessStore implements it. */
export interface AccessStore {
  findSession(id: string): Promise<SessionRecord | null>;
  /** One round trip for what every signed-in request needs. */
  findSessionWithStanding(id: string, workspaceId: string | null): Promise<SessionWithStanding | null>;
  touchSession(id: string): Promise<void>;
  findServiceAccountByTokenHash(hash: string): Promise<ServiceAccountRecord | null>;
  touchServiceAccount(id: string): Promise<void>;
  organisationRole(userId: string, organisationId: string): Promise<string | null>;
  userStanding(userId: string, workspaceId: string): Promise<WorkspaceStanding | null>;
  serviceAccountStanding(serviceAccountId: string, workspaceId: string): Promise<WorkspaceStanding | null>;
}
