import type { ServerResponse } from 'node:http';
import { HttpError, type KubeObject } from './types.js';

interface Line {
  /** when the line was written (ms since the epoch) */
  at: number;
  text: string;
}

interface Follower {
  res: ServerResponse;
  timestamps: boolean;
}

interface LogState {
  lines: Line[];
  ended: boolean;
  followers: Set<Follower>;
}

/** The kubelet's timestamp: RFC 3339 with nanoseconds. */
const stamp = (at: number) => new Date(at).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');

const render = (lines: Line[], timestamps: boolean) =>
  lines.map((l) => (timestamps ? `${stamp(l.at)} ${l.text}` : l.text)).join('');

/** Container logs kept per namespace/pod/container, line by line with the time each was written. */
export class Logs {
  private readonly logs = new Map<string, LogState>();

  log(namespace: string, pod: string, container: string): LogState {
    const key = `${namespace}/${pod}/${container}`;
    let log = this.logs.get(key);
    if (!log) {
      log = { lines: [], ended: false, followers: new Set() };
      this.logs.set(key, log);
    }
    return log;
  }

  append(namespace: string, pod: string, container: string, text: string): void {
    const log = this.log(namespace, pod, container);
    const at = Date.now();
    const added: Line[] = [];
    for (const piece of text.split(/(?<=\n)/)) {
      if (!piece) continue;
      const last = log.lines[log.lines.length - 1];
      // A line written in parts stays one line, with the time of its first part.
      if (last && !last.text.endsWith('\n')) {
        last.text += piece;
        added.push({ at: last.at, text: piece });
      } else {
        log.lines.push({ at, text: piece });
        added.push({ at, text: piece });
      }
    }
    for (const f of log.followers) f.res.write(render(added, f.timestamps));
  }

  end(namespace: string, pod: string, container: string): void {
    const log = this.log(namespace, pod, container);
    log.ended = true;
    for (const f of log.followers) f.res.end();
    log.followers.clear();
  }

  /** Ends the followers of every container of a pod (the pod is gone). */
  podGone(namespace: string, pod: string): void {
    for (const [k, log] of this.logs) {
      if (k.startsWith(`${namespace}/${pod}/`)) {
        for (const f of log.followers) f.res.end();
        log.followers.clear();
      }
    }
  }

  followerCount(namespace: string, pod: string, container: string): number {
    return this.log(namespace, pod, container).followers.size;
  }

  endAll(abrupt: boolean): void {
    for (const log of this.logs.values()) {
      for (const f of log.followers) {
        if (abrupt) f.res.destroy();
        else f.res.end();
      }
      log.followers.clear();
    }
  }

  /** GET /api/v1/namespaces/{ns}/pods/{name}/log: container, follow, tailLines, sinceSeconds, sinceTime, timestamps, limitBytes. */
  serve(
    pod: KubeObject | undefined,
    namespace: string,
    name: string,
    query: Record<string, string>,
    res: ServerResponse,
  ): void {
    if (!pod) throw new HttpError(404, 'NotFound', `pods "${name}" not found`, { name, kind: 'pods' });
    const containers = ((pod.spec as { containers?: { name: string }[] } | undefined)?.containers ?? []).map(
      (c) => c.name,
    );
    let container = query.container;
    if (!container) {
      if (containers.length !== 1) {
        throw new HttpError(
          400,
          'BadRequest',
          `a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`,
        );
      }
      container = containers[0]!;
    }
    if (!containers.includes(container)) {
      throw new HttpError(400, 'BadRequest', `container ${container} is not valid for pod ${name}`);
    }
    if (query.previous === 'true') {
      throw new HttpError(
        400,
        'BadRequest',
        `previous terminated container "${container}" in pod "${name}" not found`,
      );
    }
    const log = this.log(namespace, name, container);
    let lines = log.lines;
    if (query.sinceSeconds) {
      const since = Date.now() - Number(query.sinceSeconds) * 1000;
      lines = lines.filter((l) => l.at >= since);
    } else if (query.sinceTime) {
      const since = Date.parse(query.sinceTime);
      lines = lines.filter((l) => l.at >= since);
    }
    if (query.tailLines) lines = lines.slice(Math.max(0, lines.length - Number(query.tailLines)));
    const timestamps = query.timestamps === 'true';
    let text = render(lines, timestamps);
    if (query.limitBytes) text = Buffer.from(text).subarray(0, Number(query.limitBytes)).toString();
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.flushHeaders();
    if (text) res.write(text);
    if (query.follow === 'true' && !log.ended) {
      const follower = { res, timestamps };
      log.followers.add(follower);
      res.on('close', () => log.followers.delete(follower));
      return;
    }
    res.end();
  }
}
