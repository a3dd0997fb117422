import type { ServerResponse } from 'node:http';
import { HttpError, type KubeObject } from './types.js';

interface LogState {
  text: string;
  ended: boolean;
  followers: Set<ServerResponse>;
}

/** Container logs kept per namespace/pod/container, with followers that stream what is appended. */
export class Logs {
  private readonly logs = new Map<string, LogState>();

  log(namespace: string, pod: string, container: string): LogState {
    const key = `${namespace}/${pod}/${container}`;
    let log = this.logs.get(key);
    if (!log) {
      log = { text: '', ended: false, followers: new Set() };
      this.logs.set(key, log);
    }
    return log;
  }

  append(namespace: string, pod: string, container: string, text: string): void {
    const log = this.log(namespace, pod, container);
    log.text += text;
    for (const f of log.followers) f.write(text);
  }

  end(namespace: string, pod: string, container: string): void {
    const log = this.log(namespace, pod, container);
    log.ended = true;
    for (const f of log.followers) f.end();
    log.followers.clear();
  }

  /** Ends the followers of every container of a pod (the pod is gone). */
  podGone(namespace: string, pod: string): void {
    for (const [k, log] of this.logs) {
      if (k.startsWith(`${namespace}/${pod}/`)) {
        for (const f of log.followers) f.end();
        log.followers.clear();
      }
    }
  }

  endAll(abrupt: boolean): void {
    for (const log of this.logs.values()) {
      for (const f of log.followers) {
        if (abrupt) f.destroy();
        else f.end();
      }
      log.followers.clear();
    }
  }

  /** GET /api/v1/namespaces/{ns}/pods/{name}/log */
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
    const log = this.log(namespace, name, container);
    let text = log.text;
    if (query.tailLines) {
      const lines = text.split(/(?<=\n)/);
      text = lines.slice(Math.max(0, lines.length - Number(query.tailLines))).join('');
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.flushHeaders();
    if (text) res.write(text);
    if (query.follow === 'true' && !log.ended) {
      log.followers.add(res);
      res.on('close', () => log.followers.delete(res));
      return;
    }
    res.end();
  }
}
