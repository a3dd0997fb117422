import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureWebBuild,
  hasBrowser,
  launchBrowser,
  screenshotPath,
  startE2eServer,
  waitForLogText,
  type E2eServer,
} from './harness.js';

/** Two tasks with long names, a long param and log lines (the local executor runs it). */
const RELEASE = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: release
spec:
  params:
    - name: repository-url-of-the-service
      type: string
  tasks:
    - name: build-and-test-the-service
      taskSpec:
        steps:
          - name: compile-everything
            image: alpine
            script: |
              echo "layout line one"
              echo "a long log line that goes on and on and on, wider than any phone screen could ever be, to check it scrolls inside the terminal"
    - name: publish-the-container-image
      runAfter: [build-and-test-the-service]
      taskSpec:
        steps:
          - name: push
            image: alpine
            script: echo "layout line two"
`;

interface Widths {
  innerWidth: number;
  document: number;
  body: number;
  /** the elements reaching past the screen's edges, for the failure message */
  outside: string[];
}

/** How wide the page scrolls, and what sticks out of the screen (outside any scrolling box). */
async function widths(page: Page): Promise<Widths> {
  return page.evaluate(() => {
    const innerWidth = window.innerWidth;
    const clipped = (e: Element) => {
      for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (style.overflowX !== 'visible' || style.contain.includes('paint')) return true;
      }
      return false;
    };
    const outside = Array.from(document.body.querySelectorAll('*'))
      .filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && (r.right > innerWidth + 1 || r.left < -1) && !clipped(e);
      })
      .slice(0, 12)
      .map((e) => {
        const r = e.getBoundingClientRect();
        const id = e.getAttribute('data-testid') ?? (typeof e.className === 'string' ? e.className : '');
        return `${e.tagName.toLowerCase()} ${id.split(' ').slice(0, 2).join(' ')} [${Math.round(r.left)}, ${Math.round(r.right)}]`;
      });
    return {
      innerWidth,
      document: document.documentElement.scrollWidth,
      body: document.body.scrollWidth,
      outside,
    };
  });
}

describe.runIf(hasBrowser)('the run page in Arabic and on a phone', () => {
  let server: E2eServer;
  let browser: Browser;
  let user: { token: string; workspaceId: string; headers: Record<string, string> };
  let runId: string;

  beforeAll(async () => {
    await ensureWebBuild();
    server = await startE2eServer();
    browser = await launchBrowser();
    const { createSignedInUser } = await import('../packages/server/src/test-support/identity.js');
    user = await createSignedInUser(server.app, server.database);
    const post = async (url: string, payload: object) => {
      const res = await server.app.inject({ method: 'POST', url, headers: user.headers, payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string };
    };
    const pipeline = await post('/api/pipelines', { name: 'release', definition: RELEASE });
    const run = await post('/api/pipelineruns', {
      pipelineId: pipeline.id,
      params: {
        'repository-url-of-the-service':
          'https://git.example.com/acme/a-repository-with-a-rather-long-name.git',
      },
    });
    runId = run.id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function openPage(language: string, viewport: { width: number; height: number }) {
    const context = await browser.newContext({ viewport });
    await context.addInitScript(
      ([token, projectId, lang]) => {
        if (!localStorage.getItem('slipway.auth'))
          localStorage.setItem('slipway.auth', JSON.stringify({ token, projectId }));
        localStorage.setItem('slipway.language', lang!);
      },
      [user.token, user.workspaceId, language],
    );
    return context.newPage();
  }

  const screens = [
    { language: 'ar', viewport: { width: 1280, height: 800 } },
    { language: 'en', viewport: { width: 390, height: 844 } },
    { language: 'ar', viewport: { width: 390, height: 844 } },
  ];
  for (const { language, viewport } of screens) {
    it(`fits ${viewport.width} px in ${language === 'ar' ? 'Arabic' : 'English'}, logs showing`, async () => {
      const page = await openPage(language, viewport);
      await page.goto(`${server.url}/pipelines/runs/${runId}`);
      await page.getByTestId('run-page').locator('h1').waitFor();
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(language === 'ar' ? 'rtl' : 'ltr');
      // the canvas, the tasks and the terminal with its lines are all there
      await page.locator('.react-flow__node').first().waitFor({ timeout: 20_000 });
      await page
        .getByTestId('run-logs')
        .locator('.xterm-char-measure-element')
        .first()
        .waitFor({ state: 'attached' });
      await waitForLogText(page, 'layout line one', 30_000);

      const measured = await widths(page);
      console.log(`run page ${language} ${viewport.width} px:`, JSON.stringify(measured));
      await page.screenshot({
        path: screenshotPath(`run-page-layout-${language}-${viewport.width}`),
        fullPage: true,
      });
      expect(measured.document, measured.outside.join('\n')).toBeLessThanOrEqual(measured.innerWidth + 1);
      expect(measured.body, measured.outside.join('\n')).toBeLessThanOrEqual(measured.innerWidth + 1);
      // the log text stays left-to-right in Arabic
      expect(
        await page
          .getByTestId('run-logs')
          .evaluate((e) => getComputedStyle(e.querySelector('.xterm')!).direction),
      ).toBe('ltr');

      // the input params tab (the first) fits too
      await page.getByTestId('run-page').getByRole('tab').first().click();
      await page.locator('[data-tour="run-params-panel"]').waitFor();
      const params = await widths(page);
      await page.screenshot({
        path: screenshotPath(`run-page-layout-${language}-${viewport.width}-params`),
        fullPage: true,
      });
      expect(params.document, `params tab: ${params.outside.join('\n')}`).toBeLessThanOrEqual(
        params.innerWidth + 1,
      );
      await page.context().close();
    });
  }

  it('shows a server-side field error under its field, with no raw request path in a banner', async () => {
    const page = await openPage('en', { width: 1280, height: 800 });
    await page.goto(`${server.url}/pipelines/new`);
    const name = page.getByRole('textbox', { name: /^Name/ });
    // the form leaves names to the server, which refuses this one (400, details at body.name)
    await name.fill('Not A Valid Name!');
    const answer = page.waitForResponse(
      (r) => r.url().endsWith('/api/pipelines') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Create pipeline' }).click();
    const refused = await answer;
    expect(refused.status()).toBe(400);
    const body = (await refused.json()) as { message: string; details: { path: string; message: string }[] };
    expect(body.message).toMatch(/^body\.name: /);
    const said = body.details.find((d) => d.path === 'body.name')!.message;
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    await page.getByText(said).first().waitFor();
    expect(await page.locator('[role="alert"]').allTextContents()).not.toContainEqual(
      expect.stringContaining('body.'),
    );
    expect(await page.getByTestId('pipeline-error').count()).toBe(0);
    expect(await page.locator('body').textContent()).not.toContain('body.name');
    await page.screenshot({ path: screenshotPath('run-page-layout-form-error'), fullPage: true });
    await page.context().close();
  });
});
