import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** git with a fixed identity and no user or system configuration, for making test repositories. */
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Slipway Test',
  GIT_AUTHOR_EMAIL: 'test@slipway.test',
  GIT_COMMITTER_NAME: 'Slipway Test',
  GIT_COMMITTER_EMAIL: 'test@slipway.test',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();
}

/** A real git repository at `dir` (branch `main`, created when missing). */
export function createGitRepo(dir: string, files: Record<string, string> = {}): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  return Object.keys(files).length > 0 ? commitFiles(dir, files) : '';
}

/** Writes the files (paths relative to the repository), commits them and answers the commit. */
export function commitFiles(dir: string, files: Record<string, string>, message = 'change'): string {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}

export interface GitHttpServer {
  /** `http(s)://127.0.0.1:<port>`; a repository `<root>/<name>` is at `${url}/<name>` */
  url: string;
  /** requests answered 401 (no or a wrong token) */
  refused: number;
  /** requests let through to git http-backend */
  served: number;
  stop(): Promise<void>;
}

export interface GitHttpServerOptions {
  /** the directory whose sub-directories are the repositories */
  root: string;
  /** when set, every request needs HTTP basic auth with this password (any user name) */
  token?: string;
  /** serve HTTPS with this key and certificate (PEM) */
  tls?: { key: string; cert: string };
}

function authorised(request: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return true;
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1) === token;
}

/** Hands one request to `git http-backend` (CGI) and copies its answer back. */
function backend(root: string, request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://git.test');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.slice(1),
    REQUEST_METHOD: request.method ?? 'GET',
    CONTENT_TYPE: request.headers['content-type'] ?? '',
    REMOTE_USER: 'git',
    REMOTE_ADDR: request.socket.remoteAddress ?? '127.0.0.1',
  };
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') env[`HTTP_${name.toUpperCase().replace(/-/g, '_')}`] = value;
  }
  const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  request.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let headersDone = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) {
      response.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    const endLf = head.indexOf('\n\n');
    const [at, size] = end >= 0 ? [end, 4] : endLf >= 0 ? [endLf, 2] : [-1, 0];
    if (at < 0) return;
    headersDone = true;
    let status = 200;
    for (const line of head.subarray(0, at).toString('utf8').split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 200;
      else response.setHeader(name, value);
    }
    response.statusCode = status;
    response.write(head.subarray(at + size));
  });
  child.stderr.resume();
  child.on('close', () => {
    if (!headersDone) response.statusCode = 500;
    response.end();
  });
}

/**
 * A real git server for tests: `git http-backend` behind a small Node HTTP(S) server on a free
 * loopback port, optionally asking for a token by HTTP basic auth (as GitHub and GitLab do).
 */
export async function startGitHttpServer(options: GitHttpServerOptions): Promise<GitHttpServer> {
  const state = { refused: 0, served: 0 };
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    if (!authorised(request, options.token)) {
      state.refused += 1;
      request.resume();
      response.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('unauthorised\n');
      return;
    }
    state.served += 1;
    backend(options.root, request, response);
  };
  const server = options.tls ? createHttpsServer(options.tls, handler) : createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    get refused() {
      return state.refused;
    },
    get served() {
      return state.served;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
