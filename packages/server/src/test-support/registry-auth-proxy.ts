import { randomBytes } from 'node:crypto';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback front for a real registry that speaks the distribution spec's token auth: /v2/…
 * answers 401 with `WWW-Authenticate: Bearer realm=…,service=…,scope=…` until a token from
 * /token (basic user:password) comes along, then proxies to the registry (or, with scheme
 * `basic`, answers `WWW-Authenticate: Basic` until the request carries user:password). Also a mode that
 * replays a registry's answers with one blob's bytes tampered, for digest checks.
 */
export interface AuthProxy {
  host: string;
  url: string;
  /** the /token requests: their query and whether they carried the right basic credentials */
  tokenRequests: { service: string | null; scope: string[]; authorized: boolean }[];
  /** the /v2/ requests that reached the registry */
  proxied: string[];
  stop(): Promise<void>;
}

function registryError(res: ServerResponse, status: number, code: string, message: string, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ errors: [{ code, message, detail: null }] }));
}

async function listen(
  server: ReturnType<typeof createServer>,
): Promise<{ host: string; url: string; stop(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    url: `http://${host}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function startTokenAuthProxy(
  registryUrl: string,
  credentials: { username: string; password: string },
  scheme: 'bearer' | 'basic' = 'bearer',
): Promise<AuthProxy> {
  const upstream = new URL(registryUrl);
  const tokens = new Set<string>();
  const tokenRequests: AuthProxy['tokenRequests'] = [];
  const proxied: string[] = [];
  let self = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/token') {
      const expected = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
      const authorized = req.headers.authorization === expected;
      tokenRequests.push({
        service: url.searchParams.get('service'),
        scope: url.searchParams.getAll('scope'),
        authorized,
      });
      if (!authorized) return registryError(res, 401, 'UNAUTHORIZED', 'bad credentials');
      const token = randomBytes(16).toString('hex');
      tokens.add(token);
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ token, access_token: token, expires_in: 300 }));
    }
    const expectedBasic = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
    if (scheme === 'basic' && req.headers.authorization !== expectedBasic) {
      return registryError(res, 401, 'UNAUTHORIZED', 'authentication required', {
        'www-authenticate': 'Basic realm="slipway-test"',
      });
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (scheme === 'bearer' && (!bearer || !tokens.has(bearer))) {
      const repo = /^\/v2\/(.+)\/(?:manifests|blobs)\//.exec(url.pathname)?.[1];
      const scope = repo ? `,scope="repository:${repo}:pull"` : '';
      return registryError(res, 401, 'UNAUTHORIZED', 'authentication required', {
        'www-authenticate': `Bearer realm="${self}/token",service="slipway-test"${scope}`,
      });
    }
    proxied.push(`${req.method} ${url.pathname}`);
    const headers = { ...req.headers, host: upstream.host };
    delete headers.authorization;
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => registryError(res, 502, 'UNAVAILABLE', 'registry unreachable'));
    req.pipe(forward);
  });
  const { host, url, stop } = await listen(server);
  self = url;
  return { host, url, tokenRequests, proxied, stop };
}

/**
 * Replays what a real registry answered for the given paths (status, headers, body), with
 * `tamper` changing a body (for one blob): the one case a real registry cannot be made to lie.
 */
export async function startReplayingRegistry(
  registryUrl: string,
  paths: { path: string; accept?: string }[],
  tamper: (path: string, body: Buffer) => Buffer,
): Promise<{ host: string; url: string; requests: string[]; stop(): Promise<void> }> {
  const recorded = new Map<string, { status: number; headers: Record<string, string>; body: Buffer }>();
  for (const { path, accept } of paths) {
    const res = await fetch(`${registryUrl}${path}`, { headers: accept ? { accept } : {} });
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'docker-content-digest', 'docker-distribution-api-version']) {
      const value = res.headers.get(name);
      if (value) headers[name] = value;
    }
    recorded.set(path, {
      status: res.status,
      headers,
      body: tamper(path, Buffer.from(await res.arrayBuffer())),
    });
  }
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const hit = recorded.get(req.url ?? '');
    if (!hit) return registryError(res, 404, 'NAME_UNKNOWN', 'repository name not known to registry');
    res.writeHead(hit.status, { ...hit.headers, 'content-length': String(hit.body.length) });
    res.end(req.method === 'HEAD' ? undefined : hit.body);
  });
  const { host, url, stop } = await listen(server);
  return { host, url, requests, stop };
}
