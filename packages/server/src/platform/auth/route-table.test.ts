import { randomUUID } from 'node:crypto';
import { MESSAGES, SESSION_TTL_MS, type PermissionGrant } from '@slipway/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthStore } from '../../features/auth/auth-store.js';
import { joinAs } from '../../features/members/team.test-helper.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { Keys, loadMasterKey } from '../keys.js';
import { isUndeclaredAllowed } from './access-plugin.js';
import type { WorkspaceStanding } from './access-store-type.js';
import { canSeeWorkspace, holds, organisationGrants, workspaceGrants } from './grants.js';
import type { AccessRule } from './principal.js';
import { SessionTokens } from './tokens.js';

/**
 * The whole route table × the built-in roles, a custom role and a foreign organisation: every API
 * route declares an access rule, and what each caller gets follows from that rule alone.
 */

interface Route {
  method: string;
  url: string;
}

/** Every method + path from Fastify's route tree (printRoutes), which lists hidden routes too. */
function routeTable(app: FastifyInstance): Route[] {
  const stack: string[] = [];
  const routes: Route[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([^)]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const url = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = url;
    stack.length = depth + 1;
    for (const method of (m[3] ?? '').split(', ').filter((x) => x && x !== 'HEAD'))
      routes.push({ method, url });
  }
  return routes;
}

interface Caller {
  name: string;
  user: TestUser | null;
  organisationRole: string | null;
  /** the workspace it names in x-workspace-id, and its standing there */
  workspaceId: () => string;
  standing: () => WorkspaceStanding;
}

type Outcome = 'open' | 'allowed' | 'unauthenticated' | 'denied' | 'not_found';

function expectedOutcome(rule: AccessRule, caller: Caller): Outcome {
  if (rule.scope === 'public') return 'open';
  if (!caller.user) return 'unauthenticated';
  if (rule.scope === 'authenticated') return 'allowed';
  if (rule.scope === 'organisation') {
    return holds(organisationGrants(caller.organisationRole), rule.permission) ? 'allowed' : 'denied';
  }
  const standing = caller.standing();
  if (!canSeeWorkspace(standing, caller.user.organisationId)) return 'not_found';
  return holds(workspaceGrants(standing), rule.permission) ? 'allowed' : 'denied';
}

/** What is wrong with one answer, or null when it is what the rule says. */
function problemWith(outcome: Outcome, status: number, message: string | undefined): string | null {
  const refused = status === 403 && message === MESSAGES.actionNotAllowed;
  if (status >= 500) return `answered ${status}`;
  switch (outcome) {
    case 'unauthenticated':
      return status === 401 ? null : `expected 401, got ${status}`;
    case 'denied':
      return refused ? null : `expected 403 '${MESSAGES.actionNotAllowed}', got ${status} ${message ?? ''}`;
    case 'not_found':
      return status === 404 ? null : `expected 404, got ${status}`;
    case 'allowed':
      return status === 401 || refused ? `expected to pass the access check, got ${status}` : null;
    case 'open':
      return refused ? `a public route refused with 403` : null;
  }
}

describe('route table × callers', () => {
  let t: TestApp;
  const declared = new Map<string, AccessRule | undefined>();
  let tokens: SessionTokens;
  let owner: TestUser;
  let foreign: TestUser;
  const callers: Caller[] = [];
  const NO_PIPELINES: PermissionGrant[] = [{ permission: 'clusters:view' }];

  beforeAll(async () => {
    t = await createTestApp({}, (app) => {
      // Learn each route's declaration from the requests themselves (onSend runs before the
      // answer leaves, for refusals too).
      app.addHook('onSend', async (request) => {
        const url = request.routeOptions.url;
        if (url)
          declared.set(
            `${request.method} ${url}`,
            (request.routeOptions.config as { access?: AccessRule }).access,
          );
      });
      app.get('/api/test/undeclared', async () => ({ reachable: true }));
    });
    tokens = new SessionTokens(new Keys(loadMasterKey(t.config.masterKey, t.config.dataDir)));
    owner = await createSignedInUser(t.app, t.db.database);
    foreign = await createSignedInUser(t.app, t.db.database);
    const custom = await t.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers: owner.headers,
      payload: { name: 'No pipelines', grants: NO_PIPELINES },
    });
    const customRoleId = (custom.json() as { id: string }).id;
    const own = (
      user: TestUser | null,
      organisationRole: string | null,
      workspaceRole: string | null,
      grants: PermissionGrant[] | null = null,
    ): Caller => ({
      name: '',
      user,
      organisationRole,
      workspaceId: () => owner.workspaceId,
      standing: () => ({
        organisationId: owner.organisationId,
        organisationRole,
        workspaceRole,
        customGrants: grants,
      }),
    });
    callers.push(
      { ...own(null, null, null), name: 'anonymous' },
      { ...own(owner, 'master_admin', null), name: 'master admin' },
      { ...own(await joinAs(t, owner, 'member', 'developer'), 'member', 'developer'), name: 'developer' },
      { ...own(await joinAs(t, owner, 'member', 'viewer'), 'member', 'viewer'), name: 'viewer' },
      {
        ...own(await joinAs(t, owner, 'member', customRoleId), 'member', customRoleId, NO_PIPELINES),
        name: 'custom role without pipelines',
      },
      {
        // master admin of another organisation, naming our workspace: foreign to them
        name: 'foreign organisation',
        user: foreign,
        organisationRole: 'master_admin',
        workspaceId: () => owner.workspaceId,
        standing: () => ({
          organisationId: owner.organisationId,
          organisationRole: null,
          workspaceRole: null,
          customGrants: null,
        }),
      },
    );
  });
  afterAll(() => t.close());

  /** A new session per call, so that logout, switch or removal routes cannot end the next call's session. */
  async function freshToken(user: TestUser): Promise<string> {
    const id = randomUUID();
    const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
    await new AuthStore(t.db.database.db).createSession({
      id,
      userId: user.userId,
      organisationId: user.organisationId,
      fingerprint: null,
      ip: null,
      userAgent: null,
      expiresAt,
    });
    return tokens.sign(id, user.userId, expiresAt);
  }

  async function callAs(caller: Caller, route: Route) {
    const headers: Record<string, string> = { 'x-workspace-id': caller.workspaceId() };
    if (caller.user) headers.authorization = `Bearer ${await freshToken(caller.user)}`;
    const url = route.url.replace(/:\w+/g, () => randomUUID());
    const withBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
    const res = await t.app.inject({
      method: route.method as 'GET',
      url,
      headers,
      ...(withBody ? { payload: {} } : {}),
    });
    const message = String(res.headers['content-type'] ?? '').includes('json')
      ? (res.json() as { message?: string }).message
      : undefined;
    return { status: res.statusCode, message };
  }

  const apiRoutes = () =>
    routeTable(t.app).filter(
      (r) => !isUndeclaredAllowed(r.url) && !r.url.includes('*') && !r.url.startsWith('/api/test/'),
    );

  it('finds the routes of every feature', () => {
    const names = apiRoutes().map((r) => `${r.method} ${r.url}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /api/auth/login',
        'GET /api/profile',
        'POST /api/organisations/:id/switch',
        'DELETE /api/members/:userId/workspaces/:workspaceId',
        'POST /api/invites/accept',
        'PUT /api/roles/:id',
        'DELETE /api/service-accounts/:id',
      ]),
    );
  });

  it('every API route declares an access rule and every caller gets what the rule says', async () => {
    const problems: string[] = [];
    for (const route of apiRoutes()) {
      for (const caller of callers) {
        const { status, message } = await callAs(caller, route);
        const rule = declared.get(`${route.method} ${route.url}`);
        const where = `${route.method} ${route.url} as ${caller.name}`;
        if (!rule) {
          problems.push(`${where}: declares no access rule (answered ${status})`);
          break;
        }
        const problem = problemWith(expectedOutcome(rule, caller), status, message);
        if (problem) problems.push(`${where}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('would catch a route without a declaration', async () => {
    const res = await callAs(callers[1]!, { method: 'GET', url: '/api/test/undeclared' });
    expect(res.status).toBe(500);
    expect(declared.get('GET /api/test/undeclared')).toBeUndefined();
  });

  it('derives the outcomes it checks from the rule', () => {
    const [anonymous, admin, developer, , custom, stranger] = callers;
    const rule = (scope: 'organisation' | 'workspace', permission: 'members:create' | 'pipelines:view') =>
      ({ scope, permission }) as AccessRule;
    expect(expectedOutcome({ scope: 'authenticated' }, anonymous!)).toBe('unauthenticated');
    expect(expectedOutcome(rule('organisation', 'members:create'), admin!)).toBe('allowed');
    expect(expectedOutcome(rule('organisation', 'members:create'), developer!)).toBe('denied');
    expect(expectedOutcome(rule('workspace', 'pipelines:view'), developer!)).toBe('allowed');
    expect(expectedOutcome(rule('workspace', 'pipelines:view'), custom!)).toBe('denied');
    expect(expectedOutcome(rule('workspace', 'pipelines:view'), stranger!)).toBe('not_found');
  });
});
