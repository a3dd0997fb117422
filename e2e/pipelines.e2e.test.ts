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
  waitForLogText,
  type E2eServer,
} from './harness.js';
import { pasteIntoEditor } from './studio-editor.js';

const HELLO = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: hello
spec:
  params:
    - name: who
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
      params:
        - name: greeting
          value: $(tasks.greet.results.greeting)
      taskSpec:
        params:
          - name: greeting
        steps:
          - name: echo
            image: alpine
            script: echo "after greet said $(params.greeting)"
`;

const SLOW = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: slow
spec:
  tasks:
    - name: wait
      taskSpec:
        steps:
          - name: sleep
            image: alpine
            script: echo "waiting"; sleep 30
`;

describe.runIf(hasBrowser)('pipelines in the browser', () => {
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

  async function createPipeline(page: Page, name: string, yaml: string) {
    await page.goto(`${server.url}/pipelines/new`);
    await page.getByRole('textbox', { name: /^Name/ }).fill(name);
    await pasteIntoEditor(page, 'pipeline-definition-editor', yaml);
    await page.getByRole('button', { name: 'Create pipeline' }).click();
    await page.waitForURL(/\/pipelines\/(?!new)[\w-]+$/);
  }

  async function startRun(page: Page) {
    await page.getByTestId('run-this-pipeline').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start' }).click();
    await page.waitForURL(/\/pipelines\/runs\//);
    await page.getByTestId('run-page').waitFor();
  }

  it('runs a pasted Tekton pipeline, shows its tasks and logs, and re-runs it', async () => {
    const page = await (await signedInContext(browser, server)).newPage();
    await createPipeline(page, 'hello', HELLO);
    await startRun(page);
    const runStatus = page.locator('[data-testid="run-status"][data-status="succeeded"]');
    await runStatus.waitFor({ timeout: 20_000 });
    await waitForLogText(page, 'after greet said hello slipway');
    expect(await page.getByTestId('task-row').count()).toBe(2);
    await page.screenshot({ path: screenshotPath('pipeline-run-succeeded'), fullPage: true });

    const firstRun = page.url();
    await page.getByRole('button', { name: 'Re-run' }).click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Re-run' }).click();
    await page.waitForURL((u) => u.toString() !== firstRun && /\/pipelines\/runs\//.test(u.toString()));
    await runStatus.waitFor({ timeout: 20_000 });
    await page.context().close();
  });

  it('runs a pasted TaskRun from YAML, shows an error at its line first, and exports the run as a Tekton PipelineRun', async () => {
    const page = await (await signedInContext(browser, server)).newPage();
    await page.goto(`${server.url}/pipelines`);
    await page.getByRole('button', { name: 'Run from YAML' }).click();
    await page.waitForURL(/\/pipelines\/run-yaml$/);
    // a TaskRun whose step names a param its task does not declare: refused, nothing created
    const taskRun = (param: string) => `apiVersion: tekton.dev/v1
kind: TaskRun
metadata:
  name: greet-from-yaml
spec:
  params:
    - name: who
      value: yaml
  taskSpec:
    params:
      - name: who
    steps:
      - name: greet
        image: alpine
        script: echo "hello $(params.${param})"
`;
    await pasteIntoEditor(page, 'run-document-editor', taskRun('nobody'));
    await page.getByRole('button', { name: 'Create run' }).click();
    const error = page.getByTestId('run-from-yaml-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/nobody/);
    expect(page.url()).toMatch(/\/pipelines\/run-yaml$/);

    await pasteIntoEditor(page, 'run-document-editor', taskRun('who'));
    await page.getByRole('button', { name: 'Create run' }).click();
    await page.waitForURL(/\/pipelines\/runs\//);
    await page.locator('[data-testid="run-status"][data-status="succeeded"]').waitFor({ timeout: 30_000 });
    await waitForLogText(page, 'hello yaml');
    await page.screenshot({ path: screenshotPath('run-from-yaml-succeeded'), fullPage: true });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('run-export').click(),
    ]);
    expect(download.suggestedFilename()).toBe('greet-from-yaml.yaml');
    const exported = readFileSync((await download.path())!, 'utf8');
    expect(exported).toMatch(/^apiVersion: tekton.dev\/v1\nkind: PipelineRun\n/);
    expect(exported).toMatch(/type: Succeeded\n\s+status: "True"/);
    expect(exported).toContain('greet-from-yaml');
    await page.context().close();
  });

  it('aborts a running pipeline after confirmation', async () => {
    const page = await (await signedInContext(browser, server)).newPage();
    await createPipeline(page, 'slow', SLOW);
    await startRun(page);
    await waitForLogText(page, 'waiting', 20_000);
    await page.getByRole('button', { name: 'Abort' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Abort' }).click();
    await page.locator('[data-testid="run-status"][data-status="cancelled"]').waitFor({ timeout: 15_000 });
    await page.screenshot({ path: screenshotPath('pipeline-run-cancelled'), fullPage: true });
    await page.context().close();
  });
});
