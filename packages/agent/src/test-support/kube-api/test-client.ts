import { KubeApiServer } from './server.js';
import type { KubeApiServerOptions } from './types.js';

/** A plain-fetch client for the test API server's own tests, as a real client talks to it. */
export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export class TestClient {
  constructor(readonly api: KubeApiServer) {}

  static async start(options: KubeApiServerOptions = {}): Promise<TestClient> {
    return new TestClient(await KubeApiServer.start(options));
  }

  async call(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const res = await fetch(this.api.url + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': contentType } : {}), ...headers },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      body: text ? (JSON.parse(text) as Answer['body']) : {},
    };
  }

  get = (path: string, headers?: Record<string, string>) =>
    this.call('GET', path, undefined, undefined, headers);
  post = (path: string, body: unknown) => this.call('POST', path, body);
  put = (path: string, body: unknown) => this.call('PUT', path, body);
  del = (path: string, body?: unknown) => this.call('DELETE', path, body);
  patch = (path: string, body: unknown, type = 'application/merge-patch+json') =>
    this.call('PATCH', path, body, type);

  /** Opens a watch and collects its events until `stop()`; `ended` resolves when the server ends it. */
  watch(path: string) {
    const events: { type: string; object: Record<string, any> }[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
    const controller = new AbortController();
    const ended = (async () => {
      try {
        const res = await fetch(this.api.url + path, { signal: controller.signal });
        const decoder = new TextDecoder();
        let buffer = '';
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let i: number;
          while ((i = buffer.indexOf('\n')) >= 0) {
            events.push(JSON.parse(buffer.slice(0, i)) as (typeof events)[number]);
            buffer = buffer.slice(i + 1);
          }
        }
        return 'ended' as const;
      } catch {
        return 'aborted' as const;
      }
    })();
    return { events, ended, stop: () => controller.abort() };
  }

  close(): Promise<void> {
    return this.api.close();
  }
}

export const configMap = (name: string, namespace = 'default', extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace },
  ...extra,
});

/** Polls until `check` holds (or fails the test after `ms`). */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
