import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureWebBuild,
  headersOf,
  hasBrowser,
  launchBrowser,
  screenshotPath,
  signedInContext,
  startE2eServer,
  type E2eServer,
} from './harness.js';

const DEFINITION = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: visual
spec:
  workspaces:
    - name: source
  tasks:
    # builds the image
    - name: build
      taskSpec:
        steps:
          - name: say
            image: alpine
            script: echo build
    - name: test
      runAfter: [build]
      taskSpec:
        steps:
          - name: check
            image: alpine
            script: echo test
`;

/**
 * The Studio against the real server: a pipeline opened as its DAG, a built-in task added from
 * the catalogue and connected after another on the canvas's side panel, the YAML following, and
 * the saved definition — a new version the server validated — holding what was drawn.
 */
describe.runIf(hasBrowser)('the Studio edits a pipeline visually', () => {
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

  it('adds a catalogue task, connects it, and saves the same YAML the editor shows', async () => {
    const context = await signedInContext(browser, server);
    const page = await context.newPage();
    await page.goto(`${server.url}/studio`);
    const headers = await headersOf(page);
    const made = await fetch(`${server.url}/api/pipelines`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'visual', definition: DEFINITION }),
    });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };

    await page.reload();
    await page.getByRole('searchbox', { name: 'Search pipelines' }).fill('vis');
    await page.getByRole('link', { name: /visual/ }).click();
    await page.waitForURL(new RegExp(`/studio/pipelines/${id}$`));
    await page.locator('[data-testid="studio-dag"][data-laid-out="true"]').waitFor();

    await page.getByRole('button', { name: 'Add task' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a task' });
    await dialog.getByRole('searchbox', { name: 'Search tasks' }).fill('git-clone');
    await dialog.getByRole('button', { name: /git-clone/ }).click();
    await dialog.waitFor({ state: 'detached' });
    const panel = page.getByRole('region', { name: 'Task git-clone' });
    await panel.waitFor();
    await panel.getByRole('combobox', { name: 'Runs after' }).click();
    await page.getByRole('option', { name: 'build' }).click();
    await page.keyboard.press('Escape');
    await panel.getByRole('textbox', { name: 'Value of url' }).fill('https://git.example/app.git');
    await panel.getByRole('textbox', { name: 'Value of url' }).press('Enter');
    await page.screenshot({ path: screenshotPath('studio-visual-edit') });

    await page.getByTestId('studio-save').click();
    await page.getByText('Saved as version 2.').waitFor({ timeout: 15_000 });
    const saved = (await (await fetch(`${server.url}/api/pipelines/${id}`, { headers })).json()) as {
      definition: string;
      version: number;
    };
    expect(saved.version).toBe(2);
    // what was drawn, in the text the editor showed; the comment and the other tasks as written
    expect(saved.definition).toContain('    # builds the image\n    - name: build\n');
    expect(saved.definition).toMatch(
      /- name: git-clone\n\s+runAfter: \[build\]\n\s+taskRef:\n\s+name: git-clone\n/,
    );
    expect(saved.definition).toContain('value: https://git.example/app.git');
    // the canvas draws the new edge
    await expect.poll(() => page.locator('[data-testid="studio-dag"] .react-flow__edge').count()).toBe(2);
    await context.close();
  }, 120_000);
});
