import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { loadConfig } from '../packages/server/src/platform/config.js';
import { startServer, type RunningServer } from '../packages/server/src/server.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const RESULTS_DIR = path.join(ROOT, 'test-results');

/** Debian's Chromium, or CHROMIUM_PATH. */
export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((c): c is string => Boolean(c && existsSync(c)));
}

const chromiumPath = findChromium();
if (!chromiumPath) {
  if (process.env.SLIPWAY_REQUIRE_BROWSER || process.env.CI) {
    throw new Error(
      'Chromium not found (looked at CHROMIUM_PATH and /usr/bin/chromium); CI never skips the browser tests',
    );
  }
  console.log(
    'e2e: no Chromium found (set CHROMIUM_PATH or apt-get install chromium); browser tests skipped',
  );
}
export const hasBrowser = Boolean(chromiumPath);

/**
 * Playwright's waits default to 30 s; on a loaded 2-core machine (a CPU hog, or another suite
 * beside this one) a page's request took longer. Every context and page this browser opens waits
 * up to 60 s; a test's own timeout still bounds the whole test.
 */
const E2E_WAIT_MS = 60_000;

export async function launchBrowser(): Promise<Browser> {
  const browser = await launchChromium();
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(E2E_WAIT_MS);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    page.setDefaultTimeout(E2E_WAIT_MS);
    return page;
  };
  return browser;
}

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath!,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Builds the web app when stale, so `vitest run --project e2e` works on its own. */
export async function ensureWebBuild() {
  // @ts-expect-error plain ESM script without types
  const { buildIfStale } = (await import('../scripts/build-steps.mjs')) as {
    buildIfStale(names: string[], options: { precompress: 'skip' }): void;
  };
  // the compressed copies are for people's browsers; no test reads them
  buildIfStale(['web'], { precompress: 'skip' });
}

export interface E2eServer extends RunningServer {
  dataDir: string;
  stop(): Promise<void>;
}

/** The real server on a free loopback port, on its own embedded database. */
export async function startE2eServer(env: Record<string, string> = {}): Promise<E2eServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-e2e-'));
  // the sandbox's host user passes through to the run directories bwrap binds (never reads them)
  chmodSync(dataDir, 0o711);
  const config = loadConfig({
    SLIPWAY_DATA_DIR: dataDir,
    // no registry is reachable from the test machines: a step's root is the host's system
    SLIPWAY_STEP_IMAGES: 'host',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...env,
  });
  if (!process.env.DATABASE_URL) config.databaseUrl = undefined;
  const server = await startServer(config, false);
  return {
    ...server,
    dataDir,
    async stop() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The page's session as API headers (the web app keeps it in localStorage). */
export async function headersOf(page: Page): Promise<Record<string, string>> {
  const { token, projectId } = JSON.parse(
    (await page.evaluate(() => localStorage.getItem('slipway.auth'))) ?? '{}',
  ) as { token: string; projectId: string };
  return { authorization: `Bearer ${token}`, 'x-workspace-id': projectId };
}

export function screenshotPath(name: string) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  return path.join(RESULTS_DIR, `${name}.png`);
}

/**
 * A browser context already signed in as a new person (their own organisation and workspace),
 * the way the web app keeps a session: the token in localStorage under `slipway.auth`.
 */
export async function signedInContext(browser: Browser, server: E2eServer): Promise<BrowserContext> {
  const { createSignedInUser } = await import('../packages/server/src/test-support/identity.js');
  const user = await createSignedInUser(server.app, server.database);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(
    ([token, projectId]) => {
      if (!localStorage.getItem('slipway.auth')) {
        localStorage.setItem('slipway.auth', JSON.stringify({ token, projectId }));
      }
    },
    [user.token, user.workspaceId],
  );
  return context;
}

/**
 * Waits until the run's log terminal shows `text`. xterm paints only while the terminal is on
 * screen (as a person reading the log has it), and the run page grows above it as the DAG and
 * the task list load, so the terminal is brought back on screen until the text is painted.
 */
export async function waitForLogText(page: Page, text: string, timeout = 15_000): Promise<void> {
  const logs = page.getByTestId('run-logs');
  const line = logs.getByText(text).first();
  const until = Date.now() + timeout;
  for (;;) {
    await logs.scrollIntoViewIfNeeded({ timeout: Math.max(1, until - Date.now()) });
    try {
      await line.waitFor({ timeout: Math.min(500, Math.max(1, until - Date.now())) });
      return;
    } catch (error) {
      if (Date.now() >= until) throw error;
    }
  }
}
