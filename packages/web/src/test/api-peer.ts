import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import {
  changePasswordRequestSchema,
  ldapLoginRequestSchema,
  loginRequestSchema,
  MESSAGES,
  OAUTH_HANDOFF_INVALID_MESSAGE,
  oauthExchangeRequestSchema,
  profileUpdateRequestSchema,
  resetPasswordRequestSchema,
  signupRequestSchema,
  verifyCodeRequestSchema,
} from '@slipway/contracts';
import { createOrgPeer } from './org-peer';
import type { PeerUser, Reply } from './peer-types';

export type { PeerUser } from './peer-types';
import { createPipelinesPeer } from './pipelines-peer';
import { createApplicationsPeer } from './applications-peer';
import { createClustersPeer } from './clusters-peer';
import { createStudioPeer } from './studio-peer';
import { createRunLimitsPeer } from './run-limits-peer';
import { createTourPeer } from './tour-peer';

/**
 * A test peer that answers like Slipway's API (`/api/auth/*`, `/api/profile`) over real HTTP on
 * loopback, with users, codes and sessions kept in memory. Requests are validated with the same
 * contracts schemas the server uses and errors have the API's shape.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  /** the query parameters */
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: unknown;
}

function fail(status: number, message: string, details?: { path: string; message: string }[]): Reply {
  const error = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }[status];
  return [status, { statusCode: status, error: error ?? 'Error', message, requestId: randomUUID(), details }];
}

function invalid(error: z.ZodError): Reply {
  const details = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  return fail(400, details[0]?.message ?? 'Bad Request', details);
}

export async function startApiPeer() {
  const users = new Map<string, PeerUser>();
  const sessions = new Map<string, string>(); // token → user id
  const resetTokens = new Set<string>(['reset-token-1']);
  const requests: RecordedRequest[] = [];
  const state = {
    providers: [] as { id: string; name: string }[],
    /** one-time codes the OpenID callback handed out, and whose sign-in each one finishes */
    oauthCodes: new Map<string, PeerUser>(),
    /** answers held back this many milliseconds, by "METHOD /path" (a slow server) */
    slowAnswers: new Map<string, number>(),
  };

  function addUser(u: Partial<PeerUser> & { email: string; password: string }): PeerUser {
    const user: PeerUser = {
      id: randomUUID(),
      firstName: 'Ada',
      lastName: 'Lovelace',
      verified: true,
      code: '123456',
      ...u,
    };
    users.set(user.email, user);
    return user;
  }
  function signIn(user: PeerUser) {
    const token = `tok-${randomUUID()}`;
    sessions.set(token, user.id);
    return { token, projectId: 'ws-1' };
  }
  const orgPeer = createOrgPeer({ fail, invalid, users, addUser, signIn });
  const pipelinesPeer = createPipelinesPeer({ fail, invalid });
  const clustersPeer = createClustersPeer({ fail, invalid });
  const applicationsPeer = createApplicationsPeer({
    fail,
    invalid,
    environmentName: (id) => clustersPeer.clusters.environments.find((e) => e.id === id)?.name,
  });
  const studioPeer = createStudioPeer({ fail, invalid });
  const tourPeer = createTourPeer({ invalid });
  const runLimitsPeer = createRunLimitsPeer({ fail, invalid });

  function caller(req: IncomingMessage): PeerUser | undefined {
    const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const id = sessions.get(token);
    return [...users.values()].find((u) => u.id === id);
  }
  function profile(u: PeerUser) {
    return {
      id: u.id,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      organisationId: 'org-1',
      ...(u.signInMethod ? { signInMethod: u.signInMethod } : {}),
      organisations: [{ id: 'org-1', name: 'Analytical Engines', role: 'master_admin' }],
      workspaces: [
        { id: 'ws-1', name: 'Default', organisationId: 'org-1', role: 'admin' },
        { id: 'ws-2', name: 'Staging', organisationId: 'org-1', role: 'admin' },
      ],
    };
  }

  function route(req: IncomingMessage, path: string, query: URLSearchParams, body: unknown): Reply {
    const key = `${req.method} ${path}`;
    switch (key) {
      case 'GET /api/healthz':
        return [200, { status: 'ok', version: '0.1.0', uptimeSeconds: 1 }];
      case 'GET /api/readyz':
        return [
          200,
          {
            status: 'ready',
            database: { driver: 'pglite', reachable: true, migrationsApplied: 1, migrationsExpected: 1 },
            instance: null,
          },
        ];
      case 'POST /api/auth/signup': {
        const p = signupRequestSchema.safeParse(body);
        if (!p.success) return invalid(p.error);
        const { organisationName: _org, ...rest } = p.data;
        addUser({ ...rest, verified: false });
        return [201, { email: p.data.email, resendAfterSeconds: 60 }];
      }
      case 'POST /api/auth/verify_code': {
        const p = verifyCodeRequestSchema.safeParse(body);
        if (!p.success) return invalid(p.error);
        const user = users.get(p.data.email);
        if (!user || user.code !== p.data.code) return fail(400, MESSAGES.invalidOtp);
        user.verified = true;
        return [200, signIn(user)];
      }
      case 'POST /api/auth/resend_code':
        return [200, { email: (body as { email: string }).email, resendAfterSeconds: 60 }];
      case 'POST /api/auth/login': {
        const p = loginRequestSchema.safeParse(body);
        if (!p.success) return invalid(p.error);
        const user = users.get(p.data.email);
        if (!user || user.password !== p.data.password) return fail(401, MESSAGES.invalidCredentials);
        if (!user.verified) return fail(403, 'Email not verified');
        return [200, signIn(user)];
      }
      case 'POST /api/auth/ldap_login': {
        // the directory knows a person by username: here, the part of their e-mail before the @
        const p = ldapLoginRequestSchema.safeParse(body);
        if (!p.success) return invalid(p.error);
        const user = [...users.values()].find((u) => u.email.split('@')[0] === p.data.username);
        if (p.data.organisationId !== 'org-1' || !user || user.password !== p.data.password)
          return fail(401, MESSAGES.invalidCredentials);
        return [200, signIn({ ...user, signInMethod: 'ldap' })];
      }
      case 'POST /api/auth/logout':
        sessions.delete(String(req.headers.authorization));
        return [204];
      case 'POST /api/auth/forgot_password':
        return [200, { message: MESSAGES.checkYourEmail }];
      case 'POST /api/auth/reset_password': {
        const p = resetPasswordRequestSchema.safeParse(body);
        if (!p.success) return invalid(p.error);
        if (!resetTokens.delete(p.data.token)) return fail(400, 'This link has expired');
        return [200, { message: 'Password changed' }];
      }
      case 'POST /api/auth/oauth/exchange': {
        const p = oauthExchangeRequestSchema.safeParse(body);
        if (!p.success) return invalid(p.error);
        const person = state.oauthCodes.get(p.data.code);
        state.oauthCodes.delete(p.data.code);
        if (!person) return fail(401, OAUTH_HANDOFF_INVALID_MESSAGE);
        return [200, { ...signIn(person), projectId: 'ws-2' }];
      }
      case 'GET /api/auth/oauth/providers':
        return [200, state.providers];
      case 'GET /api/auth/oauth/login_url':
        return [
          200,
          {
            url: `https://idp.example/authorize?provider=${query.get('provider')}&intent=${query.get('intent')}`,
          },
        ];
    }
    const user = caller(req);
    const fromOrg = orgPeer.route(req, path, query, body, user);
    if (fromOrg) return fromOrg;
    const fromPipelines = user ? pipelinesPeer.route(req, path, query, body) : undefined;
    if (fromPipelines) return fromPipelines;
    const fromClusters = user ? clustersPeer.route(req, path, query, body) : undefined;
    if (fromClusters) return fromClusters;
    const fromApplications = user ? applicationsPeer.route(req, path, query, body) : undefined;
    if (fromApplications) return fromApplications;
    const fromStudio = user ? studioPeer.route(req, path, query, body) : undefined;
    if (fromStudio) return fromStudio;
    const fromTour = user ? tourPeer.route(req, path, body) : undefined;
    if (fromTour) return fromTour;
    const fromRunLimits = user ? runLimitsPeer.route(req, path, body) : undefined;
    if (fromRunLimits) return fromRunLimits;
    if (path.startsWith('/api/profile') && !user) return fail(401, 'Session expired');
    if (!user) return fail(404, `No route ${key}`);
    switch (key) {
      case 'GET /api/profile':
        return [200, profile(user)];
      case 'PUT /api/profile': {
        const p = profileUpdateRequestSchema.safeParse(body);
        if (!p.success) return invalid(p.error);
        Object.assign(user, p.data);
        return [200, profile(user)];
      }
      case 'POST /api/profile/password': {
        const p = changePasswordRequestSchema.safeParse(body);
        if (!p.success) return invalid(p.error);
        if (p.data.currentPassword !== user.password) return fail(400, MESSAGES.invalidCredentials);
        user.password = p.data.newPassword;
        return [204];
      }
    }
    return fail(404, `No route ${key}`);
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://peer');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      requests.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body,
      });
      const [status, answer, headers = {}] = route(req, url.pathname, url.searchParams, body);
      const answerIt = () => {
        if (answer === undefined) res.writeHead(status, headers).end();
        else if (typeof answer === 'string' && headers['content-type'])
          res.writeHead(status, headers).end(answer);
        else
          res
            .writeHead(status, { ...headers, 'content-type': 'application/json' })
            .end(JSON.stringify(answer));
      };
      const holdMs = state.slowAnswers.get(`${req.method ?? 'GET'} ${url.pathname}`);
      if (holdMs) setTimeout(answerIt, holdMs);
      else answerIt();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    users,
    sessions,
    resetTokens,
    requests,
    state,
    /** the organisation side: members, invites, roles, service accounts, permissions, audit */
    org: orgPeer.org,
    /** pipelines, runs and their log lines */
    pipelines: pipelinesPeer.pipelines,
    /** clusters and environments */
    clusters: clustersPeer.clusters,
    /** applications and the repositories they build from */
    applications: applicationsPeer.applications,
    /** task templates, secrets and variables */
    studio: studioPeer.studio,
    /** the guided tour's server state */
    tour: tourPeer.tour,
    /** admission limits by `workspaces/<id>` and `pipelines/<id>` (null: the default) */
    runLimits: runLimitsPeer.limits,
    addUser,
    signIn,
    /** The requests made to a path, in order. */
    calls: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export type ApiPeer = Awaited<ReturnType<typeof startApiPeer>>;

/**
 * The app calls the API at the page's origin (jsdom: http://localhost:3000/api); this fetch
 * sends each call to the peer instead, over real HTTP, keeping method, headers and body.
 */
export function forwardFetchTo(peer: ApiPeer): () => void {
  const original = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.text();
    return original(`${peer.origin}${url.pathname}${url.search}`, {
      method: req.method,
      headers: req.headers,
      body,
    });
  }) as typeof fetch;
  return () => {
    globalThis.fetch = original;
  };
}
