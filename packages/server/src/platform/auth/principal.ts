import type { Permission, PermissionGrant } from '@slipway/contracts';
import type { AuditTarget } from '../audit-target.js';
import type { SessionOrigin } from './tokens.js';

/** Who is calling: a signed-in person (through a session) or a service account. */
export type Principal =
  | {
      kind: 'user';
      userId: string;
      sessionId: string;
      organisationId: string;
      email: string;
      /** how the person signed in: an LDAP session stays in its organisation */
      origin: SessionOrigin;
    }
  | { kind: 'service_account'; serviceAccountId: string; organisationId: string; name: string };

/** The id recorded as who did something: the person or the service account; null when anonymous. */
export function actorIdOf(principal: Principal | null): string | null {
  return principal?.kind === 'user' ? principal.userId : (principal?.serviceAccountId ?? null);
}

/** The name recorded as who did something: the person's e-mail or the service account's name. */
export function actorLabelOf(principal: Principal | null): string | null {
  return principal ? (principal.kind === 'user' ? principal.email : principal.name) : null;
}

/**
 * What a route needs, declared next to its definition (`config.access`):
 * - public: anyone, signed in or not;
 * - authenticated: any valid session or service-account token;
 * - organisation: a permission in the caller's current organisation;
 * - workspace: a permission in the workspace named by x-workspace-id (404 if not visible).
 */
export type AccessRule =
  | { scope: 'public' }
  | { scope: 'authenticated' }
  | { scope: 'organisation'; permission: Permission }
  | { scope: 'workspace'; permission: Permission };

export const PUBLIC: AccessRule = { scope: 'public' };
export const AUTHENTICATED: AccessRule = { scope: 'authenticated' };
export const inOrganisation = (permission: Permission): AccessRule => ({ scope: 'organisation', permission });
export const inWorkspace = (permission: Permission): AccessRule => ({ scope: 'workspace', permission });

/**
 * What the audit hook records about a request beyond the route's declaration: a handler sets what
 * `config.auditTarget` cannot say (the detail, a target known only inside the handler); what it
 * sets here wins.
 */
export interface AuditContext {
  targetType?: string;
  targetId?: string;
  /** who was attempted, for requests without a principal (a failed sign-in names the e-mail) */
  actorLabel?: string;
  organisationId?: string;
  workspaceId?: string;
  detail?: Record<string, unknown>;
  /**
   * Set by a handler whose successful request is not worth a record (the guided tour's progress
   * between its start and its end); a request that fails is recorded all the same.
   */
  notRecorded?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** set by the access check for workspace-scoped routes */
    workspaceId: string | null;
    audit: AuditContext;
    /** the caller's grants where the route is scoped (organisation or workspace) */
    grants: PermissionGrant[] | null;
  }
  interface FastifyContextConfig {
    access?: AccessRule;
    /** the audit trail's name for what a mutating route does, e.g. 'auth.login' */
    auditAction?: string;
    /** what it acts on, e.g. { type: 'schedule', id: 'params.id' } (see platform/audit-target.ts) */
    auditTarget?: AuditTarget;
  }
}
