import { readFileSync } from 'node:fs';
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
import { pasteIntoEditor } from './studio-editor.js';

const TALK = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: talk
spec:
  tasks:
    - name: build
      taskSpec:
        steps:
          - name: compile
            image: alpine
            script: |
              printf '\\033[31mcolour red\\033[0m\\n'
              for i in 1 2 3 4 5 6; do echo "build line $i"; sleep 0.3; done
    - name: after
      runAfter: [build]
      taskSpec:
        steps:
          - name: only
            image: alpine
            script: |
              echo "after first"
              echo "find the needle here"
`;

describe.runIf(hasBrowser)('run logs in the browser', () => {
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

  async function startTalkRun(page: Page) {
    await page.goto(`${server.url}/pipelines/new`);
    await page.getByRole('textbox', { name: /^Name/ }).fill('talk');
    await pasteIntoEditor(page, 'pipeline-definition-editor', TALK);
    await page.getByRole('button', { name: 'Create pipeline' }).click();
    await page.waitForURL(/\/pipelines\/(?!new)[\w-]+$/);
    await page.getByTestId('run-this-pipeline').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start' }).click();
    await page.waitForURL(/\/pipelines\/runs\//);
  }

  it('follows a run live over the WebSocket in the terminal, with colours, task selection, search and download', async () => {
    const page = await (await signedInContext(browser, server)).newPage();
    const sockets: string[] = [];
    let frames = 0;
    page.on('websocket', (ws) => {
      sockets.push(ws.url());
      ws.on('framereceived', () => {
        frames += 1;
      });
    });
    await startTalkRun(page);
    const logs = page.getByTestId('run-logs');
    // xterm paints only while it is on screen, as a person reading the log has it
    await logs.scrollIntoViewIfNeeded();
    await logs.getByText('build line 1').waitFor({ timeout: 20_000 });
    // the lines arrived while the run went on, over the log socket, not by polling
    await page.locator('[data-testid="log-state"][data-state="live"]').waitFor({ timeout: 10_000 });
    expect(sockets.some((u) => /\/api\/ws\/pipelineruns\/[\w-]+\/logs$/.test(u))).toBe(true);
    await logs.getByText('find the needle here').waitFor({ timeout: 20_000 });
    await page.locator('[data-testid="log-state"][data-state="ended"]').waitFor({ timeout: 10_000 });
    expect(frames).toBeGreaterThan(1);
    // xterm draws the red escape as a coloured cell, without the escape characters
    const red = logs.locator('.xterm-rows span.xterm-fg-1', { hasText: 'colour red' });
    expect(await red.count()).toBeGreaterThan(0);
    expect(await logs.locator('.xterm-rows').textContent()).not.toContain('[31m');
    await page.screenshot({ path: screenshotPath('run-logs-terminal'), fullPage: true });

    await page.getByRole('combobox', { name: 'Task' }).click();
    await page.getByRole('option', { name: 'after' }).click();
    await logs.getByText('after first').waitFor({ timeout: 10_000 });
    await expect.poll(async () => logs.locator('.xterm-rows').textContent()).not.toContain('build line');

    await page.getByRole('textbox', { name: 'Search the log of this run' }).fill('NEEDLE');
    await page.keyboard.press('Enter');
    const results = page.getByTestId('log-search-results');
    await results.getByText('1 matching line.').waitFor({ timeout: 10_000 });
    // line 1 of the task is the executor's "Running step" line
    await results.getByText(/after\/only:3\s+find the needle here/).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^talk-\d+-after\.log$/);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text).toMatch(/^Running step "only" .*\nafter first\nfind the needle here\n$/);
    await page.context().close();
  });
});
