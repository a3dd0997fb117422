import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureWebBuild,
  hasBrowser,
  launchBrowser,
  screenshotPath,
  signedInContext,
  startE2eServer,
  type E2eServer,
} from './harness.js';

describe.runIf(hasBrowser)('web shell in Chromium', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    await ensureWebBuild();
    server = await startE2eServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function newPage(): Promise<{ page: Page; errors: string[] }> {
    const context = await signedInContext(browser, server);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    return { page, errors };
  }

  it('shows "Loading..." while the settings load, then the shell', async () => {
    const { page, errors } = await newPage();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/config/config.json', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${server.url}/dashboard`);
    const loading = page.getByTestId('startup-loading');
    await loading.waitFor();
    expect(await loading.textContent()).toBe('Loading...');
    release();
    await page.getByTestId('app-shell').waitFor();
    await page.getByTestId('sidebar').waitFor();
    expect(await loading.count()).toBe(0);
    await page.screenshot({ path: screenshotPath('shell-dashboard'), fullPage: true });
    expect(existsSync(screenshotPath('shell-dashboard'))).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('switches to Arabic, right-to-left, and remembers the choice', async () => {
    const { page } = await newPage();
    await page.goto(`${server.url}/dashboard`);
    await page.getByTestId('app-shell').waitFor();
    expect(await page.getAttribute('html', 'dir')).not.toBe('rtl');
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-option-ar').click();
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    expect(await page.getAttribute('html', 'lang')).toBe('ar');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await page.screenshot({ path: screenshotPath('shell-arabic-rtl'), fullPage: true });
    await page.reload();
    await page.getByTestId('app-shell').waitFor();
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-option-en').click();
    await page.waitForFunction(() => document.documentElement.dir === 'ltr');
    await page.context().close();
  });

  it('shows the router fallback for an unknown route', async () => {
    const { page } = await newPage();
    await page.goto(`${server.url}/no/such/page`);
    const fallback = page.getByTestId('router-error');
    await fallback.waitFor();
    const text = await fallback.innerText();
    expect(text).toContain('Unexpected Application Error');
    expect(text).toContain('404');
    await page.screenshot({ path: screenshotPath('router-fallback') });
    await page.context().close();
  });

  it.each([
    ['a 500', { status: 500, body: 'boom', contentType: 'text/plain' }],
    ['corrupt JSON', { status: 200, body: '{"sentry": {', contentType: 'application/json' }],
    [
      'a wrong shape',
      { status: 200, body: '{"sentry": {"enabled": "yes"}}', contentType: 'application/json' },
    ],
  ])('still loads the app when config.json answers %s, logging the error', async (_what, answer) => {
    const { page, errors } = await newPage();
    await page.route('**/config/config.json', (route) => route.fulfill(answer));
    await page.goto(`${server.url}/dashboard`);
    await page.getByTestId('app-shell').waitFor();
    expect(errors.length).toBeGreaterThan(0);
    await page.context().close();
  });

  it('still loads the app when the network drops the config request', async () => {
    const { page } = await newPage();
    await page.route('**/config/config.json', (route) => route.abort('connectionrefused'));
    await page.goto(`${server.url}/pipelines`);
    await page.getByTestId('app-shell').waitFor();
    await page.context().close();
  });
});

describe.runIf(hasBrowser)('server with a corrupt SLIPWAY_CONFIG_FILE', () => {
  it('serves defaults and the app loads', async () => {
    await ensureWebBuild();
    const file = path.join(process.env.TMPDIR ?? '/tmp', `slipway-bad-config-${process.pid}.json`);
    writeFileSync(file, '{ not json');
    const server = await startE2eServer({ SLIPWAY_CONFIG_FILE: file });
    const browser = await launchBrowser();
    try {
      const page = await (await signedInContext(browser, server)).newPage();
      await page.goto(`${server.url}/dashboard`);
      await page.getByTestId('app-shell').waitFor();
    } finally {
      await browser.close();
      await server.stop();
    }
  });
});
