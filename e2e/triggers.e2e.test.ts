import { createHmac } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import examples from '@octokit/webhooks-examples';
import {
  ensureWebBuild,
  hasBrowser,
  launchBrowser,
  screenshotPath,
  startE2eServer,
  waitForLogText,
  type E2eServer,
} from './harness.js';

/** A pasted Tekton pipeline that declares the params a webhook delivery fills in. */
const BUILD = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: build
spec:
  params:
    - name: git-url
    - name: git-revision
  tasks:
    - name: checkout
      params:
        - name: rev
          value: $(params.git-revision)
      taskSpec:
        params:
          - name: rev
        steps:
          - name: show
            image: alpine
            script: echo "building $(params.rev)"
`;

const push = (examples as unknown as Array<{ name: string; examples: Array<Record<string, unknown>> }>)
  .find((e) => e.name === 'push')!
  .examples.find((p) => p.ref === 'refs/heads/master' && !p.deleted)!;

describe.runIf(hasBrowser)('webhooks in the browser', () => {
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

  it('creates a webhook, receives a signed GitHub push, and shows the delivery and its run', async () => {
    // the pipeline through the API (the studio has its own browser test); the webhook through the UI
    const { createSignedInUser } = await import('../packages/server/src/test-support/identity.js');
    const user = await createSignedInUser(server.app, server.database);
    const made = await server.app.inject({
      method: 'POST',
      url: '/api/pipelines',
      headers: user.headers,
      payload: { name: 'build', definition: BUILD },
    });
    expect(made.statusCode, made.body).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(
      ([token, projectId]) => {
        if (!localStorage.getItem('slipway.auth'))
          localStorage.setItem('slipway.auth', JSON.stringify({ token, projectId }));
      },
      [user.token, user.workspaceId],
    );
    const page = await context.newPage();
    await page.goto(`${server.url}/webhooks`);
    await page.getByText('No webhooks yet').waitFor();
    await page.getByRole('button', { name: 'New webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    await dialog.getByRole('combobox', { name: 'Pipeline' }).click();
    await page.getByRole('option', { name: 'build' }).click();
    await dialog.getByRole('button', { name: 'Create' }).click();

    const shown = page.getByTestId('webhook-secret-dialog');
    const url = await shown.getByTestId('webhook-payload-url').inputValue();
    const secret = await shown.getByTestId('webhook-secret').inputValue();
    expect(url).toMatch(new RegExp(`^${server.url}/api/hooks/[\\w-]+$`));
    await page.screenshot({ path: screenshotPath('webhook-created'), fullPage: true });
    await shown.getByRole('button', { name: 'I have copied it' }).click();

    const body = JSON.stringify(push);
    const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    const forged = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'push',
        'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
      },
      body,
    });
    expect(forged.status).toBe(401);
    const delivered = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'push',
        'x-hub-signature-256': signature,
      },
      body,
    });
    expect(delivered.status).toBe(201);

    await page.reload();
    await page.getByRole('button', { name: 'Actions for the GitHub push webhook of build' }).click();
    await page.getByRole('menuitem', { name: 'Deliveries' }).click();
    const log = page.getByRole('dialog', { name: 'Deliveries: GitHub push for build' });
    const rows = log.getByTestId('delivery-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(1).textContent()).toContain('Rejected');
    expect(await rows.first().textContent()).toContain('Triggered');
    await page.screenshot({ path: screenshotPath('webhook-deliveries'), fullPage: true });
    await rows.first().getByRole('link', { name: 'View run' }).click();
    await page.waitForURL(/\/pipelines\/runs\//);
    await page.locator('[data-testid="run-status"][data-status="succeeded"]').waitFor({ timeout: 20_000 });
    await waitForLogText(page, 'building 6113728f27ae82c7b1a177c8d03f9e96e0adf246');
    await page.context().close();
  });
});
