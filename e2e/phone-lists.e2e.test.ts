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

const BUILD = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: build
spec:
  tasks:
    - name: hello
      taskSpec:
        steps:
          - name: say
            image: alpine
            script: echo hello
`;

/** What scrolls sideways on the page: the document itself, or any table or pager in it. */
async function sidewaysScroll(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const wide = (e: Element) => e.scrollWidth > e.clientWidth + 1;
    const tables = Array.from(
      document.querySelectorAll('.MuiTableContainer-root, .MuiTablePagination-root'),
    ).filter(wide);
    return [
      ...(wide(document.documentElement) ? ['the page'] : []),
      ...tables.map(
        (t) => `${t.className.split(' ')[0]} "${t.querySelector('table')?.getAttribute('aria-label') ?? ''}"`,
      ),
    ];
  });
}

describe.runIf(hasBrowser)('lists on a 390 px phone', () => {
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

  it('pipelines, runs, webhooks and clusters fit the screen without scrolling sideways', async () => {
    const { createSignedInUser } = await import('../packages/server/src/test-support/identity.js');
    const user = await createSignedInUser(server.app, server.database);
    const post = async (url: string, payload: object) => {
      const res = await server.app.inject({ method: 'POST', url, headers: user.headers, payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string };
    };
    const pipeline = await post('/api/pipelines', { name: 'build', definition: BUILD });
    await post('/api/pipelineruns', { pipelineId: pipeline.id });
    await post('/api/webhooks', { pipelineId: pipeline.id, type: 'github', event: 'push', branch: 'main' });
    await post('/api/clusters', { name: 'staging', type: 'other', publicRegistryPrefix: 'docker.io/acme' });

    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addInitScript(
      ([token, projectId]) => {
        if (!localStorage.getItem('slipway.auth'))
          localStorage.setItem('slipway.auth', JSON.stringify({ token, projectId }));
      },
      [user.token, user.workspaceId],
    );
    const page = await context.newPage();
    const lists = [
      { path: '/pipelines', rows: ['pipeline-row', 'run-row'] },
      { path: '/webhooks', rows: ['webhook-row'] },
      { path: '/clusters', rows: ['cluster-row'] },
    ];
    for (const { path, rows } of lists) {
      await page.goto(`${server.url}${path}`);
      for (const row of rows) await page.getByTestId(row).first().waitFor();
      expect(await sidewaysScroll(page), path).toEqual([]);
      await page.screenshot({
        path: screenshotPath(`phone-list${path.replaceAll('/', '-')}`),
        fullPage: true,
      });
    }
    await context.close();
  });
});
