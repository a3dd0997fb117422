import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyCommonHeaders } from './api';
import { apiBaseUrl, runtimeSettingsUrl, wsBaseUrl } from './endpoints';
import { loadRuntimeSettings } from './runtime-settings';

describe('bases', () => {
  it('puts the API under the page origin', () => {
    expect(apiBaseUrl({ origin: 'https://slipway.example' })).toBe('https://slipway.example/api');
    expect(runtimeSettingsUrl({ origin: 'http://127.0.0.1:8080' })).toBe(
      'http://127.0.0.1:8080/config/config.json',
    );
  });
  it('uses a secure websocket on https and plain ws on http', () => {
    expect(wsBaseUrl({ protocol: 'https:', host: 'slipway.example' })).toBe('wss://slipway.example/api/ws');
    expect(wsBaseUrl({ protocol: 'http:', host: '127.0.0.1:8080' })).toBe('ws://127.0.0.1:8080/api/ws');
  });
});

describe('common headers', () => {
  it('sends token, workspace and fingerprint when present', () => {
    const h = applyCommonHeaders(new Headers(), {
      token: 'Bearer abc',
      projectId: 'ws-1',
      fingerprint: 'fp',
    });
    expect(h.get('authorization')).toBe('Bearer abc');
    expect(h.get('x-workspace-id')).toBe('ws-1');
    expect(h.get('X-BrowserFingerprint')).toBe('fp');
  });
  it('sends none of them when absent', () => {
    const h = applyCommonHeaders(new Headers(), { token: null, projectId: null, fingerprint: null });
    expect([...h.keys()]).toEqual([]);
  });
});

describe('runtime settings fetch, against a real HTTP server', () => {
  let server: Server;
  let base: string;
  const answers: Record<string, [number, string]> = {
    '/ok': [200, JSON.stringify({ sentry: { enabled: true, dsn: 'https://k@errors.example/1' } })],
    '/500': [500, 'boom'],
    '/corrupt': [200, '{"sentry": {'],
    '/shape': [200, JSON.stringify({ heapAnalytics: { enabled: 'yes' } })],
  };
  beforeAll(async () => {
    server = createServer((req, res) => {
      const [status, body] = answers[req.url ?? ''] ?? [404, 'no'];
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('reads a good document and fills the defaults', async () => {
    const s = await loadRuntimeSettings(`${base}/ok`);
    expect(s.sentry).toEqual({ enabled: true, dsn: 'https://k@errors.example/1', environment: 'production' });
    expect(s.unleash.enabled).toBe(false);
  });

  it.each(['/500', '/corrupt', '/shape', '/missing'])(
    'falls back to everything disabled for %s, logging to the console only',
    async (path) => {
      const logged: unknown[] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => logged.push(args);
      try {
        const s = await loadRuntimeSettings(`${base}${path}`);
        expect(s.sentry.enabled).toBe(false);
        expect(s.heapAnalytics.enabled).toBe(false);
        expect(logged).toHaveLength(1);
      } finally {
        console.error = original;
      }
    },
  );

  it('falls back when nothing listens', async () => {
    const original = console.error;
    console.error = () => undefined;
    try {
      const s = await loadRuntimeSettings('http://127.0.0.1:1/config/config.json');
      expect(s.unleash.enabled).toBe(false);
    } finally {
      console.error = original;
    }
  });
});
