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
      ...tables.map((t) => {
        const table = t.querySelector('table');
        const name = table?.getAttribute('aria-label') ?? table?.getAttribute('aria-labelledby') ?? '';
        return `${t.className.split(' ')[0]} "${name}" (${t.scrollWidth} > ${t.clientWidth})`;
      }),
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

  it('every list and the new pages fit the screen without scrolling sideways, in English and in Arabic', async () => {
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
    await post('/api/service-accounts', {
      name: 'deploy-bot-with-a-long-name',
      expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      workspaces: [{ workspaceId: user.workspaceId, role: 'developer' }],
    });
    const repository = await post('/api/admin/repository', { name: 'orders-service' });
    const environments = (
      await server.app.inject({ method: 'GET', url: '/api/environments', headers: user.headers })
    ).json() as Array<{ id: string }>;
    const application = await post('/api/applications', {
      name: 'orders-service',
      repositoryId: repository.id,
      image: `127.0.0.1:8080/${user.workspaceId}/orders-service`,
      pipelineId: pipeline.id,
      serviceType: 'LoadBalancer',
      port: 8080,
      namespace: 'shop',
      environmentIds: environments.map((e) => e.id),
    });

    const lists = [
      { path: '/dashboard', rows: ['getting-started-step'] },
      { path: '/pipelines', rows: ['pipeline-row', 'run-row'] },
      { path: '/webhooks', rows: ['webhook-row'] },
      { path: '/clusters', rows: ['cluster-row'] },
      { path: '/applications', rows: ['application-row'] },
      { path: `/applications/${application.id}`, rows: ['application-environment-row'] },
      { path: '/applications/new', rows: [] },
      { path: '/applications/quick-setup', rows: ['quick-setup-template'] },
      { path: `/pipelines/${pipeline.id}`, rows: ['run-row'] },
      { path: '/pipelines/run-yaml', rows: ['run-document-editor'] },
      { path: '/repositories', rows: ['repository-row'] },
      { path: `/repositories/${repository.id}`, rows: [] },
      { path: '/registries', rows: [] },
      { path: '/studio', rows: [] },
      { path: `/studio/pipelines/${pipeline.id}`, rows: ['studio-node'] },
      { path: '/settings/team', rows: ['member-row'] },
      { path: '/settings/service-accounts', rows: ['service-account-row'] },
      { path: '/settings/roles', rows: ['role-row'] },
      { path: '/settings/account', rows: [] },
    ];
    for (const language of ['en', 'ar']) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      await context.addInitScript(
        ([token, projectId, lang]) => {
          if (!localStorage.getItem('slipway.auth'))
            localStorage.setItem('slipway.auth', JSON.stringify({ token, projectId }));
          localStorage.setItem('slipway.language', lang!);
        },
        [user.token, user.workspaceId, language],
      );
      const page = await context.newPage();
      for (const { path, rows } of lists) {
        await page.goto(`${server.url}${path}`);
        await page.locator('h1').first().waitFor();
        for (const row of rows) await page.getByTestId(row).first().waitFor();
        expect(await sidewaysScroll(page), `${path} (${language})`).toEqual([]);
        // code reads left to right in Arabic too
        for (const editor of await page.locator('.cm-content').all())
          expect(await editor.evaluate((e) => getComputedStyle(e).direction), `${path} (${language})`).toBe(
            'ltr',
          );
        await page.screenshot({
          path: screenshotPath(`phone-list-${language}${path.replaceAll('/', '-')}`),
          fullPage: true,
        });
      }
      await context.close();
    }
  });
});
