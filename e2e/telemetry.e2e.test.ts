import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureWebBuild,
  hasBrowser,
  launchBrowser,
  signedInContext,
  startE2eServer,
  type E2eServer,
} from './harness.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback HTTP peer that records every request and answers with `answer`. */
async function peer(
  answer: (req: Seen) => { status: number; body: string; headers?: Record<string, string> },
) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let raw = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
      const s: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: raw.toString('utf8'),
      };
      seen.push(s);
      const a = answer(s);
      res.writeHead(a.status, {
        'access-control-allow-origin': '*',
        'access-control-allow-headers': '*',
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        ...a.headers,
      });
      res.end(a.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { seen, url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function until(check: () => boolean, what: string, ms = 20_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.runIf(hasBrowser)('optional services switched on by config.json', () => {
  let sentry: Awaited<ReturnType<typeof peer>>;
  let unleash: Awaited<ReturnType<typeof peer>>;
  let server: E2eServer;
  let browser: Browser;
  const file = path.join(tmpdir(), `slipway-e2e-settings-${process.pid}.json`);

  beforeAll(async () => {
    await ensureWebBuild();
    sentry = await peer(() => ({ status: 200, body: '{}', headers: { 'content-type': 'application/json' } }));
    unleash = await peer((req) =>
      req.method === 'OPTIONS'
        ? { status: 204, body: '' }
        : {
            status: 200,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              toggles: [
                {
                  name: 'studio',
                  enabled: true,
                  impressionData: false,
                  variant: { name: 'disabled', enabled: false },
                },
              ],
            }),
          },
    );
    writeFileSync(
      file,
      JSON.stringify({
        heapAnalytics: { enabled: true, key: '4242' },
        sentry: { enabled: true, dsn: `${sentry.url.replace('://', '://publickey@')}/7`, environment: 'e2e' },
        unleash: {
          enabled: true,
          url: `${unleash.url}/api/frontend`,
          clientKey: 'frontend-key',
          appName: 'slipway-e2e',
        },
      }),
    );
    server = await startE2eServer({ SLIPWAY_CONFIG_FILE: file });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sentry?.close();
    await unleash?.close();
    rmSync(file, { force: true });
  });

  it('reports to Sentry, loads Heap with the key and asks Unleash for flags', async () => {
    const page = await (await signedInContext(browser, server)).newPage();
    const heapRequests: string[] = [];
    // Heap's CDN is not reachable from here: answer its script the way a CDN would, from the test.
    await page.route('https://cdn.us.heap-api.com/**', async (route) => {
      heapRequests.push(route.request().url());
      await route.fulfill({
        status: 200,
        contentType: 'text/javascript',
        body: 'window.__heapLoaded = true;',
      });
    });
    const cspViolations: string[] = [];
    page.on('console', (m) => {
      if (m.text().includes('Content Security Policy')) cspViolations.push(m.text());
    });
    await page.goto(`${server.url}/dashboard`);
    await page.getByTestId('app-shell').waitFor();

    await until(() => heapRequests.length > 0, 'the Heap script request');
    expect(heapRequests[0]).toBe('https://cdn.us.heap-api.com/config/4242/heap_config.js');
    expect(await page.evaluate(() => (window as unknown as { __heapLoaded?: boolean }).__heapLoaded)).toBe(
      true,
    );

    await until(
      () => unleash.seen.some((r) => r.method === 'GET' && r.url.startsWith('/api/frontend')),
      'the Unleash flags request',
    );
    const flagsRequest = unleash.seen.find((r) => r.method === 'GET')!;
    expect(flagsRequest.headers.authorization).toBe('frontend-key');
    expect(flagsRequest.url).toContain('appName=slipway-e2e');

    // Sentry's SDK loads lazily: once its global carrier exists, log errors to the console until
    // one arrives at the ingest peer as an envelope.
    await page.waitForFunction(() => '__SENTRY__' in window);
    const arrived = () =>
      sentry.seen.some(
        (r) => r.url.startsWith('/api/7/envelope/') && r.body.includes('slipway e2e sentry probe'),
      );
    for (let i = 0; i < 20 && !arrived(); i++) {
      await page.evaluate(() => console.error('slipway e2e sentry probe'));
      await until(arrived, 'the Sentry envelope', 1000).catch(() => undefined);
    }
    expect(arrived()).toBe(true);
    const envelope = sentry.seen.find((r) => r.body.includes('slipway e2e sentry probe'))!;
    expect(envelope.body).toContain('"environment":"e2e"');
    expect(envelope.url).toContain('sentry_key=publickey');
    expect(cspViolations).toEqual([]);
    await page.close();
  });
});
