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

const HELLO = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: tour-hello
spec:
  params:
    - name: who
      default: tour
  tasks:
    - name: greet
      params:
        - name: who
          value: $(params.who)
      taskSpec:
        params:
          - name: who
        steps:
          - name: say
            image: alpine
            script: echo "hello $(params.who)"
`;

/** The caller's tour status, read through the API with the page's session. */
async function tourStatus(page: Page, url: string) {
  const { token, projectId } = JSON.parse(
    (await page.evaluate(() => localStorage.getItem('slipway.auth'))) ?? '{}',
  ) as { token: string; projectId: string };
  const res = await fetch(`${url}/api/admin/onboarding/getTourStatus`, {
    headers: { authorization: `Bearer ${token}`, 'x-workspace-id': projectId },
  });
  return (
    (await res.json()) as { Onboardingstate: { currentstep: number; is_onboarding_completed: boolean } }
  ).Onboardingstate;
}

describe.runIf(hasBrowser)('the guided tour in the browser', () => {
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

  it('walks from the run list through the run panel to the run page, recording each server step', async () => {
    const page = await (await signedInContext(browser, server)).newPage();
    await page.goto(`${server.url}/pipelines/new`);
    await page.getByRole('textbox', { name: /^Name/ }).fill('tour-hello');
    await pasteIntoEditor(page, 'pipeline-definition-editor', HELLO);
    await page.getByRole('button', { name: 'Create pipeline' }).click();
    await page.waitForURL(/\/pipelines\/(?!new)[\w-]+$/);
    expect(await tourStatus(page, server.url)).toEqual({ currentstep: 0, is_onboarding_completed: false });

    // Take the tour: it starts at the run list (the library's screens are passed over).
    await page.getByTestId('user-menu').click();
    await page.getByTestId('take-tour').click();
    await page.waitForURL(/\/pipelines$/);
    const card = page.getByTestId('tour-popover');
    // on the run button itself, not on the way there (the sidebar's Pipelines)
    await page
      .locator('[data-testid="tour-popover"][data-step="4"]:not(:has([data-testid="tour-leading"]))')
      .waitFor();
    expect(await card.getByRole('heading').textContent()).toBe('Pipeline runs');
    expect(await tourStatus(page, server.url)).toEqual({ currentstep: 8, is_onboarding_completed: false });
    // the tour follows the run button once the pipelines page replaced the pipeline's own page
    await page.getByTestId('run-pipeline-button').waitFor();
    await expect
      .poll(async () => {
        const box = await card.boundingBox();
        const anchor = await page.getByTestId('run-pipeline-button').boundingBox();
        return box && anchor && box.width <= 353 && box.y >= anchor.y + anchor.height;
      })
      .toBe(true);
    await page.screenshot({ path: screenshotPath('tour-run-list') });

    // Initiate: no cluster is attached, so the attach modal's steps come next, leading to Clusters.
    await page.getByTestId('run-pipeline-button').click();
    await page.locator('[data-testid="tour-popover"][data-step="6"]').waitFor();
    expect(await card.getByTestId('tour-leading').isVisible()).toBe(true);
    for (let i = 0; i < 4; i++) await card.getByRole('button', { name: 'Next' }).click();
    await page.locator('[data-testid="tour-popover"][data-step="10"]').waitFor();
    expect(await card.getByRole('heading').textContent()).toBe('Pipeline run input');
    expect((await tourStatus(page, server.url)).currentstep).toBe(14);
    await page.screenshot({ path: screenshotPath('tour-run-panel') });

    // Start: the run page's canvas, then auto-advance after 5 s.
    const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('run-pipeline-select') });
    // the only pipeline is chosen already
    expect(await dialog.getByRole('combobox', { name: /^Pipeline tour-hello/ }).count()).toBe(1);
    await dialog.locator('[data-tour="run-start"]').click();
    await page.waitForURL(/\/pipelines\/runs\//);
    await page.locator('[data-testid="tour-popover"][data-step="11"]').waitFor({ timeout: 10_000 });
    expect(await card.getByRole('heading').textContent()).toBe('Studio canvas');
    await page.locator('[data-testid="tour-popover"][data-step="12"]').waitFor({ timeout: 8_000 });
    expect((await tourStatus(page, server.url)).currentstep).toBe(16);

    // The input parameters tab, by the keyboard's Right arrow too; Escape closes.
    await page.getByRole('tab', { name: 'Input parameters' }).click();
    await page.locator('[data-testid="tour-popover"][data-step="13"]').waitFor();
    await page.screenshot({ path: screenshotPath('tour-input-parameters') });
    await page.keyboard.press('ArrowRight');
    await page.locator('[data-testid="tour-popover"][data-step="14"]').waitFor();
    expect((await tourStatus(page, server.url)).currentstep).toBe(18);
    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });

    // Reloading mid-tour opens it again at the server's step.
    await page.reload();
    await page.locator('[data-testid="tour-popover"][data-step="14"]').waitFor({ timeout: 10_000 });
    await card.getByRole('button', { name: 'Skip tour' }).click();
    await card.waitFor({ state: 'detached' });
    expect(await tourStatus(page, server.url)).toEqual({ currentstep: 18, is_onboarding_completed: true });
    await page.context().close();
  });
});
