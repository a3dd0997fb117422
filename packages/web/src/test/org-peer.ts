import type { IncomingMessage } from 'node:http';
import type { ZodError } from 'zod';
import {
  ALL_PERMISSIONS,
  BUILTIN_ROLE_GRANTS,
  inviteAcceptRequestSchema,
  inviteCreateRequestSchema,
  LAST_ADMIN_MESSAGE,
  MESSAGES,
  roleRequestSchema,
  serviceAccountCreateRequestSchema,
  serviceAccountWorkspacesRequestSchema,
  SSO_MESSAGES,
  ssoSettingsRequestSchema,
  type SsoSettingsResponse,
  type AuditEventView,
  type CallerPermissions,
  type Invite,
  type Member,
  type Role,
  type ServiceAccount,
  type Workspace,
  type WorkspaceMember,
  workspaceMemberAddRequestSchema,
} from '@slipway/contracts';
import type { PeerUser, Reply } from './peer-types';
import { page } from './route-peer';

/**
 * The organisation side of the test peer: access, members, invites, roles, service accounts,
 * audit, organisations and workspaces, answering like the server's routes (shapes from contracts).
 */
export type { Reply } from './peer-types';

export interface OrgPeerDeps {
  fail: (status: number, message: string, details?: { path: string; message: string }[]) => Reply;
  invalid: (error: ZodError) => Reply;
  users: Map<string, PeerUser>;
  addUser: (u: Partial<PeerUser> & { email: string; password: string }) => PeerUser;
  signIn: (user: PeerUser) => { token: string; projectId: string };
}

const EVERYTHING = ALL_PERMISSIONS.map((permission) => ({ permission }));
export const ADMIN_PERMISSIONS: CallerPermissions = {
  organisationRole: 'master_admin',
  organisation: EVERYTHING,
  workspaceId: 'ws-1',
  workspaceRole: 'admin',
  workspace: EVERYTHING,
};

const BUILTIN_ROLES: Role[] = [
  {
    id: 'master_admin',
    name: 'Master admin',
    description: '',
    builtIn: true,
    scope: 'organisation',
    grants: EVERYTHING,
  },
  {
    id: 'account_admin',
    name: 'Account admin',
    description: '',
    builtIn: true,
    scope: 'organisation',
    grants: EVERYTHING,
  },
  ...(['project_admin', 'developer', 'viewer'] as const).map((id) => ({
    id,
    name: { project_admin: 'Project admin', developer: 'Developer', viewer: 'Viewer' }[id],
    description: '',
    builtIn: true,
    scope: 'workspace' as const,
    grants: BUILTIN_ROLE_GRANTS[id],
  })),
];

export function createOrgPeer(deps: OrgPeerDeps) {
  const org = {
    /** what /api/access/permissions answers, per user id; admins of everything otherwise */
    permissions: new Map<string, CallerPermissions>(),
    organisations: [
      { id: 'org-1', name: 'Analytical Engines', role: 'master_admin' as const, current: true },
      { id: 'org-2', name: 'Difference Ltd', role: 'member' as const, current: false },
    ].map((o) => ({ ...o, maxRunMinutes: null as number | null })),
    workspaces: [
      { id: 'ws-1', name: 'Default', organisationId: 'org-1', role: 'admin' },
      { id: 'ws-2', name: 'Staging', organisationId: 'org-1', role: 'admin' },
    ] as Workspace[],
    members: [] as Member[],
    /** the members of the workspace x-workspace-id names (one workspace is enough here) */
    workspaceMembers: [] as WorkspaceMember[],
    invites: [] as (Invite & { token: string })[],
    customRoles: [] as Role[],
    serviceAccounts: [] as ServiceAccount[],
    audit: [] as AuditEventView[],
    /** the Enterprise SSO settings (GET/PUT /api/sso/settings), null until saved */
    sso: null as SsoSettingsResponse | null,
    /** answered by PUT /api/members/:id/role when set (the last-admin rule) */
    refuseRoleChange: false,
  };
  let seq = 0;
  const next = (p: string) => `${p}-${++seq}`;

  function route(
    req: IncomingMessage,
    path: string,
    query: URLSearchParams,
    body: unknown,
    user: PeerUser | undefined,
  ): Reply | undefined {
    const key = `${req.method} ${path}`;
    // open routes: an invite link works without a session
    if (key === 'GET /api/invites/lookup') {
      const inv = org.invites.find((i) => i.token === query.get('token'));
      if (!inv) return deps.fail(404, 'This invite is invalid or has expired');
      const existing = deps.users.get(inv.email);
      return [
        200,
        { email: inv.email, organisationName: 'Analytical Engines', existingUser: Boolean(existing) },
      ];
    }
    if (key === 'POST /api/invites/accept') {
      const p = inviteAcceptRequestSchema.safeParse(body);
      if (!p.success) return deps.invalid(p.error);
      const inv = org.invites.find((i) => i.token === p.data.token);
      if (!inv) return deps.fail(404, 'This invite is invalid or has expired');
      let person = deps.users.get(inv.email);
      if (person) {
        if (person.password !== p.data.password) return deps.fail(401, MESSAGES.invalidCredentials);
      } else {
        person = deps.addUser({
          email: inv.email,
          password: p.data.password ?? '',
          firstName: p.data.firstName ?? '',
          lastName: p.data.lastName ?? '',
        });
      }
      org.invites = org.invites.filter((i) => i !== inv);
      return [200, deps.signIn(person)];
    }
    if (!user) return undefined;
    const id = path.split('/')[3] ?? '';
    switch (key) {
      case 'GET /api/access/permissions':
        return [200, org.permissions.get(user.id) ?? ADMIN_PERMISSIONS];
      case 'GET /api/organisations':
        return [200, org.organisations];
      case 'GET /api/workspaces':
        return [200, org.workspaces];
      case 'POST /api/workspaces': {
        const ws = {
          id: next('ws'),
          name: (body as { name: string }).name,
          organisationId: 'org-1',
          role: 'admin',
        };
        org.workspaces.push(ws);
        return [201, ws];
      }
      case 'GET /api/members':
        return page(org.members, query);
      case 'GET /api/workspace/members':
        return page(org.workspaceMembers, query);
      case 'POST /api/workspace/members': {
        const p = workspaceMemberAddRequestSchema.safeParse(body);
        if (!p.success) return deps.invalid(p.error);
        const m = org.members.find((x) => x.userId === p.data.userId);
        if (!m) return deps.fail(404, 'Member not found');
        const { workspaces: _w, joinedAt: _j, ...person } = m;
        org.workspaceMembers.push({ ...person, role: p.data.role });
        return [204];
      }
      case 'GET /api/sso/settings':
        return [
          200,
          org.sso ?? {
            configured: false,
            url: '',
            bindDn: '',
            bindPassword: '',
            hasBindPassword: false,
            baseDn: '',
            userQuery: '(uid={username})',
            groupQuery: '(member={dn})',
            emailAttribute: 'mail',
            enabled: false,
            groupRoles: [],
            startTls: false,
            skipTlsVerify: false,
            caCertificate: '',
            updatedAt: null,
          },
        ];
      case 'PUT /api/sso/settings': {
        const p = ssoSettingsRequestSchema.safeParse(body);
        if (!p.success) return deps.invalid(p.error);
        if (p.data.startTls && p.data.url.startsWith('ldaps://'))
          return deps.fail(400, SSO_MESSAGES.startTlsWithLdaps, [
            { path: 'body.startTls', message: SSO_MESSAGES.startTlsWithLdaps },
          ]);
        const { bindPassword: _p, ...rest } = p.data;
        org.sso = {
          ...rest,
          configured: true,
          bindPassword: '••••',
          hasBindPassword: true,
          updatedAt: new Date().toISOString(),
        };
        return [200, org.sso];
      }
      case 'GET /api/invites':
        return [200, org.invites.map(({ token: _t, ...i }) => i)];
      case 'POST /api/invites': {
        const p = inviteCreateRequestSchema.safeParse(body);
        if (!p.success) return deps.invalid(p.error);
        const inv = {
          id: next('inv'),
          token: next('inv-token'),
          email: p.data.email,
          organisationRole: p.data.organisationRole,
          workspaceId: p.data.workspaceId ?? null,
          workspaceRole: p.data.workspaceRole ?? null,
          invitedBy: user.id,
          createdAt: new Date().toISOString(),
          expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        };
        org.invites.push(inv);
        const { token: _t, ...answer } = inv;
        return [201, answer];
      }
      case 'GET /api/roles':
        return [200, [...BUILTIN_ROLES, ...org.customRoles]];
      case 'POST /api/roles': {
        const p = roleRequestSchema.safeParse(body);
        if (!p.success) return deps.invalid(p.error);
        const role: Role = { id: next('role'), ...p.data, builtIn: false, scope: 'workspace' };
        org.customRoles.push(role);
        return [201, role];
      }
      case 'GET /api/service-accounts':
        return [200, org.serviceAccounts];
      case 'POST /api/service-accounts': {
        const p = serviceAccountCreateRequestSchema.safeParse(body);
        if (!p.success) return deps.invalid(p.error);
        const token = `slw_${next('secret')}_0123456789abcdef`;
        const sa: ServiceAccount = {
          id: next('sa'),
          name: p.data.name,
          tokenPrefix: token.slice(0, 8),
          createdBy: user.id,
          createdAt: new Date().toISOString(),
          expiresAt: new Date(p.data.expiresAt).toISOString(),
          lastUsedAt: null,
          revokedAt: null,
          workspaces: p.data.workspaces,
        };
        org.serviceAccounts.push(sa);
        return [
          201,
          { id: sa.id, name: sa.name, token, tokenPrefix: sa.tokenPrefix, expiresAt: sa.expiresAt },
        ];
      }
      case 'GET /api/audit':
        return page(org.audit, query);
    }
    if (req.method === 'PUT' && /^\/api\/organisations\/[^/]+$/.test(path)) {
      const o = org.organisations.find((x) => x.id === id && x.current);
      if (!o) return deps.fail(404, 'Organisation not found');
      Object.assign(o, body as { name?: string; maxRunMinutes?: number | null });
      return [200, o];
    }
    if (req.method === 'POST' && /^\/api\/organisations\/[^/]+\/switch$/.test(path)) {
      if (!org.organisations.some((o) => o.id === id)) return deps.fail(404, 'Organisation not found');
      org.organisations = org.organisations.map((o) => ({ ...o, current: o.id === id }));
      return [200, { ...deps.signIn(user), projectId: 'ws-2' }];
    }
    if (req.method === 'PUT' && /^\/api\/members\/[^/]+\/role$/.test(path)) {
      if (org.refuseRoleChange)
        return [409, { statusCode: 409, error: 'Conflict', message: LAST_ADMIN_MESSAGE, requestId: 'r' }];
      const m = org.members.find((x) => x.userId === id);
      if (m) m.organisationRole = (body as { organisationRole: Member['organisationRole'] }).organisationRole;
      return [204];
    }
    if (path.startsWith('/api/workspace/members/')) {
      const member = org.workspaceMembers.find((m) => m.userId === path.split('/')[4]);
      if (!member) return deps.fail(404, 'The member is not in this workspace');
      if (req.method === 'PUT') member.role = (body as { role: string }).role;
      else org.workspaceMembers = org.workspaceMembers.filter((m) => m !== member);
      return [204];
    }
    if (req.method === 'DELETE' && path.startsWith('/api/members/')) {
      org.members = org.members.filter((m) => m.userId !== id);
      return [204];
    }
    if (req.method === 'DELETE' && path.startsWith('/api/invites/')) {
      org.invites = org.invites.filter((i) => i.id !== id);
      return [204];
    }
    if (req.method === 'PUT' && /^\/api\/service-accounts\/[^/]+\/workspaces$/.test(path)) {
      const p = serviceAccountWorkspacesRequestSchema.safeParse(body);
      if (!p.success) return deps.invalid(p.error);
      const sa = org.serviceAccounts.find((s) => s.id === id);
      if (!sa) return deps.fail(404, 'Service account not found');
      sa.workspaces = p.data.workspaces;
      return [200, sa];
    }
    if (req.method === 'DELETE' && path.startsWith('/api/service-accounts/')) {
      const sa = org.serviceAccounts.find((s) => s.id === id);
      if (sa) sa.revokedAt = new Date().toISOString();
      return [204];
    }
    return undefined;
  }

  return { org, route };
}
