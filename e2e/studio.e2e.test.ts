import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { pasteIntoEditor } from './studio-editor.js';

/** A Tekton pipeline as a user would paste it: runAfter, a result reference and a finally task. */
const STUDIO = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: studio
spec:
  params:
    - name: who
      type: string
      default: slipway
  tasks:
    - name: greet
      params:
        - name: who
          value: $(params.who)
      taskSpec:
        params:
          - name: who
        results:
          - name: greeting
        steps:
          - name: say
            image: alpine
            script: |
              echo "hello $(params.who)" | tee $(results.greeting.path)
    - name: after
      runAfter: [greet]
      taskSpec:
        steps:
          - name: echo
            image: alpine
            script: echo "after greet"
    - name: shout
      params:
        - name: greeting
          value: $(tasks.greet.results.greeting)
      taskSpec:
        params:
          - name: greeting
        steps:
          - name: up
            image: alpine
            script: echo "$(params.greeting)" | tr a-z A-Z
  finally:
    - name: report
      taskSpec:
        steps:
          - name: done
            image: alpine
            script: echo "report $(tasks.status)"
`;

describe.runIf(hasBrowser)('the studio in the browser', () => {
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

  async function nodeStatuses(page: Page) {
    return page
      .getByTestId('dag-node')
      .evaluateAll((nodes) =>
        Object.fromEntries(
          nodes.map((n) => [(n as HTMLElement).dataset.task, (n as HTMLElement).dataset.status]),
        ),
      );
  }

  it('pastes a pipeline, runs it, watches the DAG turn green, opens a task, and re-runs', async () => {
    const page = await (await signedInContext(browser, server)).newPage();
    await page.goto(`${server.url}/pipelines/new`);
    await page.getByRole('textbox', { name: /^Name/ }).fill('studio');
    await pasteIntoEditor(page, 'pipeline-definition-editor', STUDIO);
    // the params form reads the pasted YAML
    await page.getByRole('tab', { name: 'Params form' }).click();
    expect(await page.getByRole('textbox', { name: 'Param name' }).inputValue()).toBe('who');
    await page.getByRole('tab', { name: 'YAML' }).click();
    await page.getByRole('button', { name: 'Create pipeline' }).click();
    await page.waitForURL(/\/pipelines\/(?!new)[\w-]+$/);

    await page.getByTestId('run-this-pipeline').click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('textbox', { name: 'who (string)' }).inputValue()).toBe('slipway');
    expect(await dialog.getByRole('spinbutton', { name: 'Timeout (hours)' }).inputValue()).toBe('1');
    await dialog.getByRole('textbox', { name: 'who (string)' }).fill('studio');
    await dialog.getByRole('button', { name: 'Start' }).click();
    await page.waitForURL(/\/pipelines\/runs\//);

    // the canvas: four nodes (finally apart), two edges (runAfter and a result reference)
    await page.locator('[data-testid="run-dag"][data-laid-out="true"]').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('dag-node').count(), { timeout: 20_000 }).toBe(4);
    expect(await page.locator('[data-testid="run-dag"] .react-flow__edge').count()).toBe(2);
    await expect
      .poll(() => nodeStatuses(page), { timeout: 30_000 })
      .toEqual({ greet: 'succeeded', after: 'succeeded', shout: 'succeeded', report: 'succeeded' });
    await page.locator('[data-testid="run-status"][data-status="succeeded"]').waitFor({ timeout: 20_000 });
    const finallyBox = await page.locator('[data-testid="dag-node"][data-task="report"]').boundingBox();
    const shoutBox = await page.locator('[data-testid="dag-node"][data-task="shout"]').boundingBox();
    expect(finallyBox!.x).toBeGreaterThan(shoutBox!.x);
    expect(await page.getByTestId('timeline-bar').count()).toBe(4);
    expect(await page.getByTestId('critical-path').textContent()).toMatch(/greet → .* → report/);

    // a node selects its task for the logs tab
    await page.locator('[data-testid="dag-node"][data-task="shout"]').click();
    expect(await page.getByTestId('selected-task').textContent()).toBe('Selected task: shout');
    await waitForLogText(page, 'HELLO STUDIO');
    await page.getByRole('tab', { name: 'Input parameters' }).click();
    await page.getByRole('cell', { name: 'studio', exact: true }).waitFor();
    await page.screenshot({ path: screenshotPath('studio-run-view'), fullPage: true });

    // re-run, after confirming
    const firstRun = page.url();
    await page.getByTestId('run-action-rerun').click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Re-run' }).click();
    await page.waitForURL((u) => u.toString() !== firstRun && /\/pipelines\/runs\//.test(u.toString()));
    await expect
      .poll(() => nodeStatuses(page), { timeout: 30_000 })
      .toEqual({ greet: 'succeeded', after: 'succeeded', shout: 'succeeded', report: 'succeeded' });
    await page.context().close();
  });

  it('uses the catalogue and keeps secret values write-only against the real API', async () => {
    const page = await (await signedInContext(browser, server)).newPage();
    // built-in task templates are there and read-only
    await page.goto(`${server.url}/task-templates`);
    const gitClone = page.getByTestId('task-template-row').filter({ hasText: 'git-clone' });
    await gitClone.getByTestId('built-in').waitFor();
    await gitClone.getByRole('button', { name: 'View' }).click();
    await page
      .locator('[data-testid="template-definition-editor"] .cm-content[contenteditable="false"]')
      .waitFor();
    expect(await page.getByRole('dialog').getByRole('button', { name: 'Save' }).count()).toBe(0);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    // a pipeline template, then a pipeline from it
    await page.goto(`${server.url}/pipeline-templates`);
    await page.getByTestId('empty-state').waitFor();
    await page.getByRole('button', { name: 'New pipeline template' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: /^Name/ }).fill('studio-template');
    await pasteIntoEditor(page, 'template-definition-editor', STUDIO);
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    const row = page.getByTestId('template-row').filter({ hasText: 'studio-template' });
    await row.getByRole('button', { name: 'Use template' }).click();
    await page
      .getByRole('dialog')
      .getByRole('textbox', { name: /New pipeline name/ })
      .fill('from-template');
    await page.getByRole('dialog').getByRole('button', { name: 'Create pipeline' }).click();
    await page.getByTestId('pipeline-detail-page').getByRole('heading', { name: 'from-template' }).waitFor();

    // a secret: its value goes in and never comes back
    await page.goto(`${server.url}/secrets`);
    await page.getByRole('button', { name: 'New secret' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: /^Name/ }).fill('deploy-token');
    await page.getByRole('dialog').getByLabel('Value', { exact: true }).fill('e2e-s3cr3t-value');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('secret-row').filter({ hasText: 'deploy-token' }).waitFor();
    expect(await page.content()).not.toContain('e2e-s3cr3t-value');
    await page.screenshot({ path: screenshotPath('studio-secrets'), fullPage: true });
    await page.context().close();
  });
});
