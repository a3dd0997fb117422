import { spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';

/** One smart-HTTP request for `git http-backend` (a CGI program): what the CGI environment names. */
export interface GitCgiRequest {
  method: string;
  /** `/<repository>.git/info/refs`, `/<repository>.git/git-upload-pack`, … below the project root */
  pathInfo: string;
  /** the query string without `?` (`service=git-upload-pack`) */
  query: string;
  contentType?: string;
  /** `gzip` when the client compressed its request body */
  contentEncoding?: string;
  /** the Git-Protocol header (protocol v2) */
  gitProtocol?: string;
  /** who is calling, for the repository's reflog; receive-pack is refused without one */
  remoteUser: string;
  remoteAddr: string;
  body: Readable | null;
}

export interface GitCgiAnswer {
  status: number;
  headers: Record<string, string>;
  body: Readable;
  /** settles when git has exited: its exit code and what it wrote on stderr */
  done: Promise<{ code: number | null; stderr: string }>;
}

export interface GitCgiOptions {
  /** the directory holding the repositories (GIT_PROJECT_ROOT) */
  projectRoot: string;
  /** an empty directory: git's HOME and hooks path, so no user or repository hook ever runs */
  emptyDir: string;
  /** the largest request body taken, in bytes */
  maxBodyBytes: number;
  /** how long one request may run before git is stopped */
  timeoutMs: number;
}

/** Git settings for every request: no hooks, pushes checked object by object, no system or user config. */
function gitConfig(emptyDir: string): Record<string, string> {
  const settings: Array<[string, string]> = [
    ['core.hooksPath', emptyDir],
    ['http.receivepack', 'true'],
    ['http.uploadpack', 'true'],
    ['receive.fsckObjects', 'true'],
    ['receive.denyDeleteCurrent', 'true'],
    ['uploadpack.allowFilter', 'true'],
  ];
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(settings.length) };
  settings.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/**
 * Runs `git http-backend` for one request and answers with its status, headers and body. Git gets
 * a bare environment — never the server's own (which holds its keys and database address) — and
 * only the one project root; the body it reads is cut at `maxBodyBytes`.
 */
export function runGitHttpBackend(request: GitCgiRequest, options: GitCgiOptions): Promise<GitCgiAnswer> {
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: options.emptyDir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_PROJECT_ROOT: options.projectRoot,
    GIT_HTTP_EXPORT_ALL: '1',
    GIT_HTTP_MAX_REQUEST_BUFFER: String(options.maxBodyBytes),
    GATEWAY_INTERFACE: 'CGI/1.1',
    REQUEST_METHOD: request.method,
    PATH_INFO: request.pathInfo,
    QUERY_STRING: request.query,
    REMOTE_USER: request.remoteUser,
    REMOTE_ADDR: request.remoteAddr,
    ...gitConfig(options.emptyDir),
  };
  if (request.contentType) env.CONTENT_TYPE = request.contentType;
  if (request.contentEncoding) env.HTTP_CONTENT_ENCODING = request.contentEncoding;
  if (request.gitProtocol) env.GIT_PROTOCOL = request.gitProtocol;

  const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < 16_384) stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });

  if (request.body) {
    let seen = 0;
    request.body.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > options.maxBodyBytes) {
        request.body!.unpipe(child.stdin);
        request.body!.destroy();
        child.kill('SIGKILL');
      }
    });
    request.body.on('error', () => child.kill('SIGKILL'));
    request.body.pipe(child.stdin);
  } else {
    child.stdin.end();
  }
  child.stdin.on('error', () => {
    // git stopped reading (it refused the request): its answer says why
  });

  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = headerEnd(head);
      if (end === null) {
        if (head.length > 65_536) fail(new Error('git http-backend wrote no header'));
        return;
      }
      child.stdout.off('data', onData);
      child.stdout.off('end', onEnd);
      const parsed = parseCgiHeaders(head.subarray(0, end.at).toString('latin1'));
      const body = new PassThrough();
      body.write(head.subarray(end.at + end.length));
      child.stdout.pipe(body);
      resolve({ ...parsed, body, done });
    };
    const onEnd = () => fail(new Error(`git http-backend ended without an answer`));
    const fail = (err: Error) => {
      child.stdout.off('data', onData);
      child.kill('SIGKILL');
      void done.then(({ stderr: text }) =>
        reject(new Error(text.trim() ? `${err.message}: ${text.trim()}` : err.message)),
      );
    };
    child.stdout.on('data', onData);
    child.stdout.on('end', onEnd);
    child.on('error', (err) => reject(err));
  });
}

function headerEnd(buf: Buffer): { at: number; length: number } | null {
  const crlf = buf.indexOf('\r\n\r\n');
  const lf = buf.indexOf('\n\n');
  if (crlf === -1 && lf === -1) return null;
  if (crlf !== -1 && (lf === -1 || crlf < lf)) return { at: crlf, length: 4 };
  return { at: lf, length: 2 };
}

/** A CGI answer's header block: `Status: 404 Not Found` sets the status; the rest are headers. */
export function parseCgiHeaders(block: string): { status: number; headers: Record<string, string> } {
  let status = 200;
  const headers: Record<string, string> = {};
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'status') status = Number.parseInt(value, 10) || 500;
    else headers[name] = value;
  }
  return { status, headers };
}
