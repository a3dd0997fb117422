import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { ApiException, type KubeConfig } from '@kubernetes/client-node';

/**
 * A container's log through `GET /api/v1/namespaces/{ns}/pods/{pod}/log`. A followed log that the
 * API server (or the network) cuts off before it ends is opened again from where it was: the
 * agent always asks for `timestamps=true` while following, and reopens with `sinceTime` (whole
 * seconds, as the API takes it) at the last line's time, leaving out the lines it already passed
 * on. The caller gets the timestamps only if it asked for them.
 */

export interface LogRequest {
  namespace: string;
  pod: string;
  container: string;
  follow: boolean;
  tailLines?: number | undefined;
  sinceSeconds?: number | undefined;
  timestamps?: boolean | undefined;
}

export interface LogHandle {
  abort(): void;
  /** resolves when the log ends (or is aborted), rejects when it cannot be read on */
  done: Promise<void>;
}

export interface FollowOptions {
  /** reopen attempts in a row before giving up (default 5) */
  retries?: number;
  /** the pause before the first reopen, doubled each time (default 250 ms) */
  backoffMs?: number;
}

/** One log request; resolves with the answer once it is 200, rejects with the API's Status otherwise. */
async function openLog(
  kc: KubeConfig,
  request: LogRequest,
  extra: { sinceTime?: string; timestamps: boolean },
): Promise<{ res: IncomingMessage; cancel(): void }> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('No current cluster in the kubeconfig');
  const url = new URL(
    `${cluster.server.replace(/\/$/, '')}/api/v1/namespaces/${encodeURIComponent(request.namespace)}/pods/${encodeURIComponent(request.pod)}/log`,
  );
  url.searchParams.set('container', request.container);
  if (request.follow) url.searchParams.set('follow', 'true');
  if (extra.sinceTime) url.searchParams.set('sinceTime', extra.sinceTime);
  else {
    if (request.sinceSeconds) url.searchParams.set('sinceSeconds', String(request.sinceSeconds));
    if (request.tailLines) url.searchParams.set('tailLines', String(request.tailLines));
  }
  if (extra.timestamps) url.searchParams.set('timestamps', 'true');
  const options: https.RequestOptions = { method: 'GET', headers: { accept: '*/*' } };
  await kc.applyToHTTPSOptions(options);
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = send(url, options, (res) => {
      if (res.statusCode === 200) {
        resolve({ res, cancel: () => req.destroy() });
        return;
      }
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => reject(new ApiException(res.statusCode ?? 500, `GET ${url.pathname}`, body, {})));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const STAMP = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d) /;

/** A kubelet timestamp as [whole seconds since the epoch, nanoseconds], and its length with the space. */
function readStamp(line: string): { at: [number, number]; length: number } | null {
  const m = STAMP.exec(line);
  if (!m) return null;
  const seconds = Date.parse(`${m[1]}${m[3]}`) / 1000;
  const nanos = Number((m[2] ?? '').padEnd(9, '0'));
  return { at: [seconds, nanos], length: m[0].length };
}

const compare = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];

/** Reads a log; a followed one is reopened after a cut until it ends. */
export async function readLog(
  kc: KubeConfig,
  request: LogRequest,
  onData: (text: string) => void,
  options: FollowOptions = {},
): Promise<LogHandle> {
  if (!request.follow) {
    const { res, cancel } = await openLog(kc, request, { timestamps: request.timestamps ?? false });
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => onData(chunk));
    const done = new Promise<void>((resolve, reject) => {
      res.on('end', resolve);
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('The log was cut off')));
    });
    return { abort: cancel, done };
  }

  const retries = options.retries ?? 5;
  const backoffMs = options.backoffMs ?? 250;
  const keepStamps = request.timestamps ?? false;
  let last: [number, number] | null = null;
  /** lines passed on with exactly the time `last` */
  let atLast = 0;
  /** lines of the reopened log at exactly `last` still to leave out */
  let skipAtLast = 0;
  let aborted = false;
  let cancel: () => void = () => undefined;
  let timer: NodeJS.Timeout | null = null;

  const passLine = (line: string) => {
    const stamp = readStamp(line);
    if (!stamp) {
      onData(`${line}\n`);
      return;
    }
    if (last && compare(stamp.at, last) < 0) return;
    if (last && compare(stamp.at, last) === 0) {
      if (skipAtLast > 0) {
        skipAtLast--;
        return;
      }
      atLast++;
    } else {
      last = stamp.at;
      atLast = 1;
      skipAtLast = 0;
    }
    onData(keepStamps ? `${line}\n` : `${line.slice(stamp.length)}\n`);
  };

  let settle: { resolve(): void; reject(error: unknown): void } = {
    resolve: () => undefined,
    reject: () => undefined,
  };
  const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));

  const attach = (res: IncomingMessage, attempt: number) => {
    let partial = '';
    let finished = false;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      attempt = 0;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) passLine(line);
    });
    const cut = () => {
      if (finished || aborted) return;
      finished = true;
      // The part of a line that came is sent again, whole, by the reopened log.
      reopen(attempt + 1);
    };
    res.on('aborted', cut);
    res.on('error', cut);
    res.on('close', () => {
      if (!res.complete) cut();
    });
    res.on('end', () => {
      if (finished || aborted) return;
      // A complete answer ends the log; a connection cut mid-answer ends without `complete`.
      if (!res.complete) return cut();
      finished = true;
      if (partial) passLine(partial);
      settle.resolve();
    });
  };

  const reopen = (attempt: number) => {
    if (attempt > retries) {
      settle.reject(new Error(`The log of ${request.pod}/${request.container} was cut off ${retries} times`));
      return;
    }
    skipAtLast = atLast;
    const since = last ? new Date(last[0] * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') : undefined;
    timer = setTimeout(
      () => {
        timer = null;
        if (aborted) return;
        openLog(kc, request, { timestamps: true, ...(since ? { sinceTime: since } : {}) }).then(
          (opened) => {
            if (aborted) return opened.cancel();
            cancel = opened.cancel;
            attach(opened.res, attempt);
          },
          (error: unknown) => {
            if (aborted) return;
            // The pod or container went away: the log cannot be read on.
            if (error instanceof ApiException && error.code < 500) settle.reject(error);
            else reopen(attempt + 1);
          },
        );
      },
      backoffMs * 2 ** (attempt - 1),
    );
  };

  const first = await openLog(kc, request, { timestamps: true });
  cancel = first.cancel;
  attach(first.res, 0);
  return {
    abort: () => {
      aborted = true;
      if (timer) clearTimeout(timer);
      cancel();
      settle.resolve();
    },
    done,
  };
}
