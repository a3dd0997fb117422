import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ReadyResponse } from '@slipway/contracts';
import { buildApp } from './app.js';
import { loadConfig } from './platform/config.js';
import { startServer } from './server.js';
import { PUBLIC } from './platform/auth/principal.js';
import { createScratchPostgres, createTestDatabase } from './test-support/test-database.js';
import { writeWebBuild } from './test-support/test-app.js';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const dirs: string[] = [];
function tempDir() {
  const d = mkdtempSync(path.join(tmpdir(), 'slipway-server-'));
  dirs.push(d);
  return d;
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('restart', () => {
  it('keeps its data across a restart', async () => {
    const dir = tempDir();
    const scratch = process.env.DATABASE_URL
      ? await createScratchPostgres(process.env.DATABASE_URL)
      : undefined;
    const env = {
      SLIPWAY_DATA_DIR: dir,
      PORT: '0',
      LOG_LEVEL: 'silent',
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    };
    try {
      const first = await startServer(loadConfig(env));
      const a = (await (await fetch(`${first.url}/api/readyz`)).json()) as ReadyResponse;
      await first.close();
      const second = await startServer(loadConfig(env));
      const b = (await (await fetch(`${second.url}/api/readyz`)).json()) as ReadyResponse;
      await second.close();
      expect(b.instance?.id).toBe(a.instance?.id);
      expect(b.instance?.firstStartedAt).toBe(a.instance?.firstStartedAt);
      expect(b.instance?.starts).toBe((a.instance?.starts ?? 0) + 1);
      if (!scratch) expect(existsSync(path.join(dir, 'pgdata'))).toBe(true);
    } finally {
      await scratch?.drop();
    }
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight request finish and then refuses connections', async () => {
    const db = await createTestDatabase();
    const webDir = path.join(tempDir(), 'web');
    writeWebBuild(webDir);
    const config = loadConfig({ SLIPWAY_WEB_DIR: webDir, LOG_LEVEL: 'silent' });
    const app = await buildApp({ config, database: db.database, logger: false });
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    app.get('/api/test/slow', { config: { access: PUBLIC } }, async () => {
      entered();
      await new Promise((r) => setTimeout(r, 500));
      return { finished: true };
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const pending = fetch(`${address}/api/test/slow`).then((r) => r.json());
    await inside;
    const closed = app.close();
    expect(await pending).toEqual({ finished: true });
    await closed;
    await expect(fetch(`${address}/api/healthz`)).rejects.toThrow();
    await db.dispose();
  });
});

function runMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => ({ out, err }) };
}

describe('the server process', () => {
  it('exits non-zero naming the variable and the rule for a bad setting', async () => {
    const p = runMain({ PORT: 'eighty' });
    expect(await p.exited).toBe(2);
    expect(p.output().err).toContain('PORT: must be a whole number from 0 to 65535');
  });

  it('serves, then shuts down cleanly on SIGTERM and releases the data directory', async () => {
    const dir = tempDir();
    const p = runMain({ SLIPWAY_DATA_DIR: dir, PORT: '0', DATABASE_URL: '' });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const m = /Slipway is serving at (http:\/\/[\d.:]+)/.exec(p.output().out);
        if (m) {
          clearInterval(timer);
          resolve(m[1]!);
        }
      }, 50);
      void p.exited.then(() => {
        clearInterval(timer);
        reject(new Error(`exited early: ${p.output().err}`));
      });
    });
    expect((await fetch(`${url}/api/readyz`)).status).toBe(200);
    expect(existsSync(path.join(dir, 'slipway.pid'))).toBe(true);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.output().out).toContain('shutting down');
    expect(existsSync(path.join(dir, 'slipway.pid'))).toBe(false);
  });
});
