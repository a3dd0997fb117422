import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '@slipway/agent';
import { KubeApiServer } from '@slipway/agent/test-kube-api-server';
import { startAgentFromYaml } from './agent.js';
import { freePort } from '../packages/server/src/test-support/free-port.js';
import { sandboxRequired, sandboxSupport } from '../packages/server/src/test-support/sandbox.js';
import { buildahAvailable, buildahRequired } from '../packages/server/src/test-support/oci-registry.js';
import {
  ensureWebBuild,
  hasBrowser,
  launchBrowser,
  screenshotPath,
  startE2eServer,
  type E2eServer,
} from './harness.js';

const support = sandboxSupport();
const runnable =
  hasBrowser &&
  ((support.available && support.network && buildahAvailable) || buildahRequired || sandboxRequired);

/** The six-digit code of the newest verification mail for `email` in the server's outbox. */
function mailedCode(dataDir: string, email: string): string | null {
  const outbox = path.join(dataDir, 'outbox');
  if (!existsSync(outbox)) return null;
  for (const file of readdirSync(outbox).sort().reverse()) {
    const mail = readFileSync(path.join(outbox, file), 'utf8');
    if (!mail.includes(email)) continue;
    const code = /^Subject: .*?(\d{6})\s*$/m.exec(mail)?.[1];
    if (code) return code;
  }
  return null;
}

/**
 * Issue 12's golden path, in the browser, on a fresh server with the local executor: sign up with
 * the mailed code, attach a cluster (the real agent, against the protocol-level API server), bind
 * the development environment with its builds on the server, quick setup of the Node.js template,
 * the first run green (clone from the hosted repository, the template's test, buildah pushing to
 * Slipway's registry, the deploy through the agent), and the application's overview showing it.
 * The whole tour walks the same screens in tour.e2e.test.ts.
 */
describe.runIf(runnable)('the golden path in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  let api: KubeApiServer;
  let agent: Agent | undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'slipway-e2e-golden-'));

  beforeAll(async () => {
    await ensureWebBuild();
    // a known port: the clone and the push reach the server at its own address (decision 031)
    server = await startE2eServer({ PORT: String(await freePort()) });
    browser = await launchBrowser();
    api = await KubeApiServer.start();
    api.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apps' } });
  });
  afterAll(async () => {
    await agent?.stop();
    await api?.close();
    await browser?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs up, sets up an application, runs it green and lands on its overview', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const email = 'newcomer@e2e.test';

    // Sign up with the code from the mail (no SMTP server: the outbox).
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('First name').fill('New');
    await page.getByLabel('Last name').fill('Comer');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Newcomer!pass1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/verify-email/);
    await expect.poll(() => mailedCode(server.dataDir, email), { timeout: 15_000 }).toBeTruthy();
    await page.getByLabel('Verification code').fill(mailedCode(server.dataDir, email)!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/dashboard/);
    // the tour opens for a newcomer; it is walked in tour.e2e.test.ts
    const tour = page.getByTestId('tour-popover');
    await tour.getByRole('button', { name: 'Skip tour' }).click();
    await tour.waitFor({ state: 'detached' });
    await page.getByTestId('getting-started-step').first().waitFor();
    await page.screenshot({ path: screenshotPath('golden-dashboard') });

    // Attach a cluster: the YAML's token starts the real agent.
    await page.goto(`${server.url}/clusters`);
    await page.getByTestId('attach-cluster-button').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('trial');
    await dialog.getByLabel('Cluster type').click();
    await page.getByRole('option', { name: 'Other' }).click();
    await dialog.getByLabel('Public Registry Prefix').fill(new URL(server.url).host);
    await dialog.getByRole('button', { name: 'Next' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByTestId('download-yaml').click(),
    ]);
    const yamlPath = path.join(dir, 'attach.yaml');
    await download.saveAs(yamlPath);
    await dialog.getByTestId('applied-yaml').click();
    agent = startAgentFromYaml(yamlPath, api, server.url, dir);
    await dialog.getByText('Your cluster is connected.').waitFor({ timeout: 15_000 });
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL(/\/pipelines$/, { timeout: 10_000 });

    // Bind development to it; its builds run on this server (the test API server runs no pods).
    await page.goto(`${server.url}/environments`);
    await page.getByRole('button', { name: 'Edit development' }).click();
    const envDialog = page.getByRole('dialog');
    await envDialog.getByRole('combobox', { name: 'Cluster' }).click();
    await page.getByRole('option', { name: 'trial' }).click();
    await envDialog.getByLabel('Namespace').fill('apps');
    await envDialog.getByRole('combobox', { name: 'Run pipeline tasks' }).click();
    await page.getByRole('option', { name: 'On the Slipway server, sandboxed' }).click();
    await envDialog.getByRole('button', { name: 'Save' }).click();
    await envDialog.waitFor({ state: 'detached' });

    // Quick setup from the application library.
    await page.goto(`${server.url}/applications`);
    await page.getByRole('link', { name: 'Quick setup' }).first().click();
    await page.waitForURL(/\/applications\/quick-setup$/);
    await page.getByRole('radio', { name: /Node\.js service/ }).check();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('hello');
    await page.getByRole('combobox', { name: /^Environments/ }).click();
    await page.getByRole('option', { name: 'development' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Advanced' }).click();
    // no public base image can be pulled here: the image holds the files alone
    await page.getByRole('textbox', { name: 'Base image' }).fill('scratch');
    await page.screenshot({ path: screenshotPath('golden-quick-setup') });
    await page.getByRole('button', { name: 'Create and run' }).click();
    const result = page.getByTestId('quick-setup-result');
    await result.waitFor({ timeout: 30_000 });
    // nothing will stop the first run; the clone URL names loopback, which the page says
    expect(await result.getByTestId('quick-setup-warning').count()).toBe(0);
    expect(await result.getByTestId('loopback-warning').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('golden-quick-setup-result') });

    // The first run: the Deployment controller's part is played here once the manifests land.
    await result.getByRole('link', { name: 'View first run' }).click();
    await page.waitForURL(/\/pipelines\/runs\/[\w-]+$/);
    await expect
      .poll(() => Boolean(api.get('apps/v1', 'Deployment', 'hello', 'apps')), { timeout: 120_000 })
      .toBe(true);
    api.setStatus('apps/v1', 'Deployment', 'apps', 'hello', {
      observedGeneration: 1,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
    });
    const status = page.getByTestId('run-page').getByTestId('status-chip').first();
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 60_000 }).toBe('succeeded');
    await page.screenshot({ path: screenshotPath('golden-first-run') });

    // The application's overview: deployed to development, healthy, by that run, with its tag.
    await page.goto(`${server.url}/applications`);
    await page.getByRole('link', { name: 'hello' }).click();
    const overview = page.getByTestId('application-page');
    await overview.waitFor();
    await expect
      .poll(async () => (await overview.textContent()) ?? '', { timeout: 20_000 })
      .toMatch(/development[\s\S]*Healthy/);
    expect(await overview.textContent()).toMatch(/Succeeded/);
    await page.screenshot({ path: screenshotPath('golden-overview') });
    await context.close();
  }, 300_000);
});
