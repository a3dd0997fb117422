import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, createGitRepo } from '../packages/server/src/test-support/git-http-server.js';
import {
  ensureWebBuild,
  hasBrowser,
  launchBrowser,
  screenshotPath,
  signedInContext,
  startE2eServer,
  waitForLogText,
  type E2eServer,
} from './harness.js';

const pipeline = (word: string) => `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: from-git }
spec:
  tasks:
    - name: say
      taskSpec:
        steps:
          - { name: echo, image: alpine, script: 'echo "from git ${word}"' }
`;

describe.runIf(hasBrowser)('external pipelines in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  let dir: string;
  let repo: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'slipway-e2e-git-'));
    repo = path.join(dir, 'shop');
    createGitRepo(repo, { '.tekton/pipeline.yaml': pipeline('v1') });
    await ensureWebBuild();
    server = await startE2eServer({ SLIPWAY_GIT_ALLOW: 'file' }); // the repository is a file:// one
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds one from a git repository, syncs a change, opens its pipeline and runs the new version', async () => {
    const page = await (await signedInContext(browser, server)).newPage();
    await page.goto(`${server.url}/external-pipelines`);
    await page.getByText('No external pipelines yet').waitFor();
    await page.getByRole('button', { name: 'Add external pipeline' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('shop-ci');
    await dialog.getByRole('textbox', { name: /^Repository URL/ }).fill(`file://${repo}`);
    await dialog.getByRole('button', { name: 'Add' }).click();
    const row = page.getByTestId('external-pipeline-row');
    await row.waitFor();
    expect(await row.textContent()).toContain('.tekton/pipeline.yaml');

    commitFiles(repo, { '.tekton/pipeline.yaml': pipeline('v2') }, 'v2');
    await page.getByRole('button', { name: 'Actions for external pipeline shop-ci' }).click();
    await page.getByRole('menuitem', { name: 'Sync now' }).click();
    await page.getByText('shop-ci synced: version 2 is the new definition.').waitFor();
    await page.screenshot({ path: screenshotPath('external-pipelines'), fullPage: true });

    await row.getByRole('link', { name: 'shop-ci' }).click();
    await page.waitForURL(/\/pipelines\/(?!new)[\w-]+$/);
    await page.getByTestId('run-this-pipeline').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start' }).click();
    await page.waitForURL(/\/pipelines\/runs\//);
    await page.locator('[data-testid="run-status"][data-status="succeeded"]').waitFor({ timeout: 20_000 });
    await waitForLogText(page, 'from git v2');
    await page.context().close();
  });
});
