import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '@slipway/agent';
import { KubeApiServer } from '@slipway/agent/test-kube-api-server';
import { startAgentFromYaml } from './agent.js';
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

const DEPLOY_PIPELINE = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: roll-out }
spec:
  params:
    - { name: tag, type: string }
  tasks:
    - name: deploy
      taskRef: { name: deploy }
      params:
        - { name: image, value: registry.example.com/acme/shop }
        - { name: tag, value: $(params.tag) }
        - name: manifests
          value: |
            apiVersion: apps/v1
            kind: Deployment
            metadata: { name: shop }
            spec:
              replicas: 1
              selector: { matchLabels: { app: shop } }
              template:
                metadata: { labels: { app: shop } }
                spec:
                  containers: [{ name: web, image: registry.example.com/acme/shop:latest }]
`;

describe.runIf(hasBrowser)('attaching a cluster in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  let api: KubeApiServer;
  let agent: Agent | undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'slipway-e2e-kube-'));

  beforeAll(async () => {
    await ensureWebBuild();
    server = await startE2eServer();
    browser = await launchBrowser();
    api = await KubeApiServer.start({
      nodes: [
        { name: 'node-a', cpu: '4' },
        { name: 'node-b', cpu: '2' },
      ],
    });
    api.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    api.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-1', namespace: 'shop' },
      spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
    });
    api.setPodPhase('shop', 'web-1', 'Running');
    api.appendLog('shop', 'web-1', 'app', 'listening on 8080\n');
  });
  afterAll(async () => {
    await agent?.stop();
    await api?.close();
    await browser?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('attaches through the downloaded YAML, goes active, redirects to pipelines and browses resources', async () => {
    const context = await signedInContext(browser, server);
    const page = await context.newPage();
    await page.goto(`${server.url}/clusters`);
    await page.getByText('No clusters yet').waitFor();
    await page.getByTestId('attach-cluster-button').click();

    // Step 1: configure.
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByText('Cluster type is Required').waitFor();
    await dialog.getByLabel('Name').fill('kind-local');
    await dialog.getByLabel('Cluster type').click();
    await page.getByRole('option', { name: 'Other' }).click();
    await dialog.getByLabel('Public Registry Prefix').fill('registry.example.com/acme');
    await dialog.getByRole('button', { name: 'Next' }).click();

    // Step 2: download the YAML; the command applies it.
    await dialog.getByTestId('connect-cluster').waitFor();
    expect(await dialog.getByTestId('kubectl-command').textContent()).toBe(
      'kubectl apply -f slipway-agent-kind-local.yaml',
    );
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByTestId('download-yaml').click(),
    ]);
    expect(download.suggestedFilename()).toBe('slipway-agent-kind-local.yaml');
    const yamlPath = path.join(dir, 'attach.yaml');
    await download.saveAs(yamlPath);
    await page.screenshot({ path: screenshotPath('clusters-attach-yaml') });

    // Step 3: connecting, until the agent started with the YAML's token says hello.
    await dialog.getByTestId('applied-yaml').click();
    await dialog.getByTestId('connecting').waitFor();
    agent = startAgentFromYaml(yamlPath, api, server.url, dir);

    // Step 4: connected; choose namespaces for logs; then the pipelines open after 3 seconds.
    await dialog.getByText('Your cluster is connected.').waitFor({ timeout: 15_000 });
    await dialog.getByRole('checkbox', { name: 'shop' }).check();
    await page.screenshot({ path: screenshotPath('clusters-connected') });
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.getByTestId('cluster-connected').waitFor();
    const doneAt = Date.now();
    await page.waitForURL(/\/pipelines$/, { timeout: 10_000 });
    expect(Date.now() - doneAt).toBeGreaterThanOrEqual(2500);

    // The cluster is active with the facts its agent reported.
    await page.goto(`${server.url}/clusters`);
    const row = page.getByTestId('cluster-row');
    await expect.poll(() => row.getByTestId('cluster-status').textContent()).toBe('Active');
    await row.getByRole('link', { name: 'kind-local' }).click();
    await page.getByTestId('cluster-page').waitFor();
    expect(await page.getByTestId('fact-nodes').textContent()).toBe('2');
    expect(await page.getByTestId('fact-vcpu').textContent()).toBe('6');

    // Browse: pods in the shop namespace, a pod's YAML and its log.
    await page.getByRole('combobox', { name: 'Namespace' }).click();
    await page.getByRole('option', { name: 'shop' }).click();
    const pod = page.getByTestId('resource-row').filter({ hasText: 'web-1' });
    await pod.waitFor();
    expect(await pod.textContent()).toContain('Running');
    await pod.click();
    const resource = page.getByRole('dialog');
    await expect
      .poll(() => resource.getByTestId('resource-yaml').textContent())
      .toContain('image: nginx:1.27');
    await resource.getByRole('tab', { name: 'Logs' }).click();
    await expect.poll(() => resource.getByTestId('pod-logs').textContent()).toContain('listening on 8080');
    // Follow the log live: a new line arrives over the socket.
    await resource.getByRole('switch', { name: 'Follow' }).check();
    await expect.poll(() => resource.getByTestId('pod-logs').textContent()).toContain('listening on 8080');
    api.appendLog('shop', 'web-1', 'app', 'GET /health 200\n');
    await expect.poll(() => resource.getByTestId('pod-logs').textContent()).toContain('GET /health 200');
    await page.screenshot({ path: screenshotPath('clusters-resources') });

    // A terminal in the pod (xterm, loaded on first use).
    await resource.getByRole('tab', { name: 'Terminal' }).click();
    const terminal = resource.getByTestId('pod-terminal');
    await terminal.locator('.xterm-rows').waitFor();
    await terminal.click();
    await page.keyboard.type('echo hello from xterm');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => terminal.locator('.xterm-rows').textContent(), { timeout: 10_000 })
      .toContain('hello from xterm');
    await page.screenshot({ path: screenshotPath('clusters-terminal') });
    await resource.getByRole('button', { name: 'Cancel' }).click();

    // Bind the staging environment to the cluster, deploy through a pipeline, see its health.
    await page.goto(`${server.url}/environments`);
    await page.getByRole('button', { name: 'Edit staging' }).click();
    const envDialog = page.getByRole('dialog');
    await envDialog.getByRole('combobox', { name: 'Cluster' }).click();
    await page.getByRole('option', { name: 'kind-local' }).click();
    await envDialog.getByLabel('Namespace').fill('shop');
    await envDialog.getByRole('button', { name: 'Save' }).click();
    await envDialog.waitFor({ state: 'detached' });
    const staging = page.getByTestId('environment-row').filter({ hasText: 'staging' });
    await expect.poll(() => staging.textContent()).toContain('kind-local');

    const headers = await headersOf(page);
    const envs = (await (await fetch(`${server.url}/api/environments?name=staging`, { headers })).json()) as {
      id: string;
    }[];
    const pipeline = await fetch(`${server.url}/api/pipelines`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'roll-out', definition: DEPLOY_PIPELINE }),
    });
    expect(pipeline.status).toBe(201);
    const started = await fetch(`${server.url}/api/pipelineruns`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        pipelineId: ((await pipeline.json()) as { id: string }).id,
        environmentId: envs[0]!.id,
        params: { tag: '2.0.1' },
      }),
    });
    expect(started.status).toBe(201);
    await expect
      .poll(() => api.get('apps/v1', 'Deployment', 'shop', 'shop'), { timeout: 20_000 })
      .toBeTruthy();
    expect(JSON.stringify(api.get('apps/v1', 'Deployment', 'shop', 'shop'))).toContain('acme/shop:2.0.1');
    api.setStatus('apps/v1', 'Deployment', 'shop', 'shop', {
      observedGeneration: 1,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
    });
    await page.goto(`${server.url}/environments/${envs[0]!.id}`);
    const deployed = page.getByTestId('deployment-row');
    await expect
      .poll(async () => (await deployed.getByTestId('health-chip').textContent()) ?? '', { timeout: 20_000 })
      .toBe('Healthy');
    expect(await deployed.textContent()).toContain('registry.example.com/acme/shop:2.0.1');
    await page.screenshot({ path: screenshotPath('clusters-deployed') });
    await context.close();
  });
});
