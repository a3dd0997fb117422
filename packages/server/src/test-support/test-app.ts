import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig, type ServerConfig } from '../platform/config.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface TestApp {
  app: FastifyInstance;
  config: ServerConfig;
  db: TestDatabase;
  dir: string;
  close(): Promise<void>;
}

/** A small built web app on disk, shaped like Vite's output, for the static-serving tests. */
export function writeWebBuild(dir: string) {
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head>' +
      '<body><div id="root"></div></body></html>',
  );
  writeFileSync(
    path.join(dir, 'assets', 'index-abc123.js'),
    `console.log(${JSON.stringify('x'.repeat(4000))});`,
  );
}

export async function createTestApp(
  env: Record<string, string> = {},
  prepare?: (app: FastifyInstance) => void | Promise<void>,
): Promise<TestApp> {
  const dir = mkdtempSync(path.join(tmpdir(), 'slipway-test-'));
  // the sandbox's host user resolves the run directories it binds: it must pass through (never read)
  chmodSync(dir, 0o711);
  const webDir = path.join(dir, 'web');
  writeWebBuild(webDir);
  const config = loadConfig({
    SLIPWAY_DATA_DIR: path.join(dir, 'data'),
    SLIPWAY_WEB_DIR: webDir,
    // no registry is reachable from the test machines: a step's root is the host's system
    SLIPWAY_STEP_IMAGES: 'host',
    ...env,
  });
  const db = await createTestDatabase();
  const app = await buildApp({ config, database: db.database, logger: false });
  await prepare?.(app);
  await app.ready();
  return {
    app,
    config,
    db,
    dir,
    async close() {
      await app.close();
      await db.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
