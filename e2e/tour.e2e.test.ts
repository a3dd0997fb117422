import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureWebBuild,
  hasBrowser,
  launchBrowser,
  screenshotPath,
  startE2eServer,
  type E2eServer,
} from './harness.js';

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

/** A person's tour state, as getTourStatus answers it (their one organisation). */
async function tourStatus(server: E2eServer, userId: string) {
  const res = await server.database.db.execute(
    sql`SELECT current_step, completed FROM onboarding_states WHERE user_id = ${userId}`,
  );
  const [row] = ((res as { rows?: unknown[] }).rows ?? res) as Array<{
    current_step: number;
    completed: boolean;
  }>;
  return { currentstep: row?.current_step ?? 0, is_onboarding_completed: row?.completed ?? false };
}

/** A new person with a pipeline, signed in through the login page as they would be. */
async function newcomer(
  browser: Browser,
  server: E2eServer,
  pipeline?: string,
): Promise<{ page: Page; userId: string }> {
  const { createSignedInUser, TEST_PASSWORD } =
    await import('../packages/server/src/test-support/identity.js');
  const user = await createSignedInUser(server.app, server.database);
  if (pipeline) {
    const made = await server.app.inject({
      method: 'POST',
      url: '/api/pipelines',
      headers: user.headers,
      payload: { name: 'tour-hello', definition: pipeline },
    });
    expect(made.statusCode, made.body).toBe(201);
  }
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  // the tour's steps make applications and pipelines on the way: beside a CPU hog a step's
  // navigation took over Playwright's 30 s default
  page.setDefaultTimeout(60_000);
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/dashboard/);
  return { page, userId: user.userId };
}

/** The events of a person's tour in the audit trail (start, skip, finish), oldest first. */
async function tourEvents(server: E2eServer, userId: string) {
  const res = await server.database.db.execute(
    sql`SELECT detail FROM audit_events WHERE action = 'onboarding.tour_status' AND actor_id = ${userId} ORDER BY id`,
  );
  const rows = ((res as { rows?: unknown[] }).rows ?? res) as Array<{ detail: { event?: string } | null }>;
  return rows.map((r) => r.detail?.event ?? null);
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

  it('opens at a first sign-in and walks from the library to the microservice overview, recording each server step', async () => {
    const { page, userId } = await newcomer(browser, server, HELLO);
    const card = page.getByTestId('tour-popover');
    const at = (step: number, own = true) =>
      page
        .locator(
          `[data-testid="tour-popover"][data-step="${step}"]${own ? ':not(:has([data-testid="tour-leading"]))' : ''}`,
        )
        .waitFor({ timeout: 15_000 });

    // A first sign-in starts the tour at the library's sidebar entry (server step 4).
    await at(0);
    expect(await card.getByRole('heading').textContent()).toBe('Microservice library');
    expect(await tourStatus(server, userId)).toEqual({ currentstep: 4, is_onboarding_completed: false });
    await page.screenshot({ path: screenshotPath('tour-library') });
    await page.locator('[data-tour="microservice-library"]').click();
    await at(1);
    await page.getByRole('button', { name: 'New application' }).click();

    // The wizard's general details: done when its Next leads to the service step.
    await at(2);
    const form = page.getByRole('form', { name: 'New application' });
    await form.getByRole('textbox', { name: 'Name' }).fill('tour-app');
    await form.getByRole('combobox', { name: /^Environments/ }).click();
    await page.getByRole('option', { name: 'development' }).click();
    await page.keyboard.press('Escape');
    await at(2);
    await page.screenshot({ path: screenshotPath('tour-general-details') });
    await form.getByRole('button', { name: 'Next' }).click();
    await at(3, false);
    await form.getByRole('combobox', { name: /^Service type/ }).click();
    await page.getByRole('option', { name: 'ClusterIP' }).click();
    await form.getByRole('textbox', { name: 'Service port' }).fill('8080');
    await form.getByRole('textbox', { name: 'Namespace' }).fill('tour');
    // by the keyboard: the menu opens under the tour's card
    await form.getByRole('combobox', { name: /^Pipeline/ }).click();
    await page.getByRole('option', { name: 'tour-hello' }).focus();
    await page.keyboard.press('Enter');
    await form.getByRole('combobox', { name: /^Pipeline tour-hello/ }).waitFor();
    await form.getByRole('button', { name: 'Create application' }).click();

    // The success page's proceed button opens the pipeline, on its run button.
    await at(3);
    expect(await tourStatus(server, userId)).toEqual({ currentstep: 7, is_onboarding_completed: false });
    // a slow press: the next step's card must not come between the press and the release
    await page.getByRole('button', { name: 'Proceed to pipeline run' }).click({ delay: 400 });
    await page.waitForURL(/\/pipelines\/(?!runs)[\w-]+$/);
    await at(4);
    expect(await card.getByRole('heading').textContent()).toBe('Pipeline runs');
    expect(await tourStatus(server, userId)).toEqual({ currentstep: 8, is_onboarding_completed: false });
    await expect
      .poll(async () => {
        const box = await card.boundingBox();
        const anchor = await page.getByTestId('run-this-pipeline').boundingBox();
        return box && anchor && box.width <= 353 && box.y >= anchor.y + anchor.height;
      })
      .toBe(true);
    await page.screenshot({ path: screenshotPath('tour-run-list') });

    // Initiate: no cluster is attached, so the attach modal's steps come next, leading to Clusters.
    await page.getByTestId('run-this-pipeline').click();
    await at(6, false);
    for (let i = 0; i < 4; i++) await card.getByRole('button', { name: 'Next' }).click();
    await at(10);
    expect(await card.getByRole('heading').textContent()).toBe('Pipeline run input');
    expect((await tourStatus(server, userId)).currentstep).toBe(14);
    await page.screenshot({ path: screenshotPath('tour-run-panel') });

    // Start: the run page's canvas, then auto-advance after 5 s.
    await page.locator('[data-tour="run-start"]').click();
    await page.waitForURL(/\/pipelines\/runs\//);
    await at(11);
    expect(await card.getByRole('heading').textContent()).toBe('Studio canvas');
    await at(12);
    expect((await tourStatus(server, userId)).currentstep).toBe(16);

    // The input parameters tab, by the keyboard's Right arrow too; Escape closes.
    await page.getByRole('tab', { name: 'Input parameters' }).click();
    await at(13);
    await page.screenshot({ path: screenshotPath('tour-input-parameters') });
    await page.keyboard.press('ArrowRight');
    await at(14);
    expect((await tourStatus(server, userId)).currentstep).toBe(18);
    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });

    // Reloading mid-tour opens it again at the server's step.
    await page.reload();
    await at(14);
    await page.locator('[data-tour="run-canvas"]').click({ position: { x: 10, y: 10 } });
    await at(15);
    await at(16, false);
    await page.getByRole('tab', { name: 'Logs' }).click();
    await at(17);
    await at(18, false);
    // per-task logs: the build task, then the apply yaml task (this pipeline has one task)
    // (by the keyboard: the task menu opens under the tour's card)
    await page.locator('[data-tour="run-log-task"]').click();
    await at(19, false);
    await page.getByRole('option', { name: 'greet' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await page.locator('[data-tour="run-log-task"]').click();
    await at(20, false);
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await page.locator('[data-tour="run-canvas"]').click({ position: { x: 10, y: 10 } });
    await expect.poll(async () => (await tourStatus(server, userId)).currentstep).toBeGreaterThanOrEqual(25);

    // The final canvas waits for the run to finish, then the overview link ends the tour.
    await at(22, false);
    expect(await card.getByRole('heading').textContent()).toBe('Microservice overview');
    expect((await tourStatus(server, userId)).currentstep).toBe(26);
    await page.locator('[data-tour="microservice-library"]').click();
    await at(22);
    await page.screenshot({ path: screenshotPath('tour-overview') });
    await page.getByRole('link', { name: 'tour-app' }).click();
    await page.waitForURL(/\/applications\/[\w-]+$/);
    await card.waitFor({ state: 'detached' });
    await expect
      .poll(() => tourStatus(server, userId))
      .toEqual({ currentstep: 27, is_onboarding_completed: true });
    // one audit record at the start and one at the finish, none for the steps between
    expect(await tourEvents(server, userId)).toEqual(['start', 'finish']);

    // A finished tour does not open again.
    await page.reload();
    await page.getByTestId('application-page').waitFor();
    await page.waitForTimeout(1000);
    expect(await card.count()).toBe(0);
    await page.context().close();
  }, 180_000);

  it('"Skip tour" closes it for good: a reload leaves it closed', async () => {
    const { page, userId } = await newcomer(browser, server);
    const card = page.getByTestId('tour-popover');
    await page.locator('[data-testid="tour-popover"][data-step="0"]').waitFor({ timeout: 15_000 });
    await card.getByRole('button', { name: 'Skip tour' }).click();
    await card.waitFor({ state: 'detached' });
    expect(await tourStatus(server, userId)).toEqual({ currentstep: 4, is_onboarding_completed: true });
    await page.reload();
    await page.getByTestId('app-shell').waitFor();
    await page.waitForTimeout(1000);
    expect(await card.count()).toBe(0);
    expect(await tourEvents(server, userId)).toEqual(['start', 'skip']);
    await page.context().close();
  }, 60_000);
});
