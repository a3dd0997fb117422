import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MESSAGES,
  TOTAL_COUNT_HEADER,
  type Application,
  type ApplicationDetail,
  type Environment,
  type RepositoryDetail,
} from '@slipway/contracts';
import { deployments } from '../../platform/database/schema.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { waitFor } from '../pipeline-runs/pipeline-runs.test-helper.js';

const run = promisify(execFile);

const BUILD = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: build }
spec:
  params:
    - { name: git-revision, type: string, default: "" }
    - { name: image, type: string, default: "" }
  tasks:
    - name: say
      taskSpec:
        params: [{ name: image }]
        steps:
          - name: echo
            image: busybox
            script: echo building $(params.image)
      params: [{ name: image, value: $(params.image) }]
`;

describe('applications', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let envs: Record<string, string>;
  let pipelineId: string;
  let repository: RepositoryDetail;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createSignedInUser(t.app, t.db.database);
    stranger = await createSignedInUser(t.app, t.db.database);
    const list = (await call(owner, 'GET', '/api/environments')).json() as Environment[];
    envs = Object.fromEntries(list.map((e) => [e.name, e.id]));
    const pipeline = await call(owner, 'POST', '/api/pipelines', { name: 'build', definition: BUILD });
    expect(pipeline.statusCode, pipeline.body).toBe(201);
    pipelineId = (pipeline.json() as { id: string }).id;
    const repo = await call(owner, 'POST', '/api/admin/repository', { name: 'orders' });
    repository = repo.json() as RepositoryDetail;
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (who: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const image = (name: string) => `127.0.0.1:${t.config.port}/${owner.workspaceId}/${name}`;
  const valid = (name: string, extra: object = {}) => ({
    name,
    repositoryId: repository.id,
    image: image(name),
    pipelineId,
    serviceType: 'ClusterIP',
    port: 8080,
    namespace: 'shop',
    environmentIds: [envs.development, envs.staging],
    ...extra,
  });

  it('answers the spec’s k8servicetypes call', async () => {
    const res = await call(
      owner,
      'GET',
      '/api/admin/app/k8servicetypes?_end=100&_order=ASC&_sort=id&_start=0',
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers[TOTAL_COUNT_HEADER.toLowerCase()]).toBe('4');
    expect((res.json() as Array<{ name: string }>).map((s) => s.name)).toEqual([
      'ClusterIP',
      'NodePort',
      'LoadBalancer',
      'Headless',
    ]);
    const byName = await call(owner, 'GET', '/api/admin/app/k8servicetypes?_sort=name&_order=DESC&_end=2');
    expect((byName.json() as Array<{ name: string }>).map((s) => s.name)).toEqual([
      'NodePort',
      'LoadBalancer',
    ]);
  });

  it('refuses what the wizard would, with the spec’s messages, naming each field', async () => {
    const res = await call(owner, 'POST', '/api/applications', {
      name: 'Orders',
      port: 'eighty',
      namespace: '',
      environmentIds: [],
    });
    expect(res.statusCode).toBe(400);
    const details = (res.json() as { details: Array<{ path: string; message: string }> }).details;
    const byPath = Object.fromEntries(details.map((d) => [d.path, d.message]));
    expect(byPath).toMatchObject({
      'body.name': MESSAGES.smallcaseOrNumbers,
      'body.serviceType': MESSAGES.serviceTypeRequired,
      'body.port': MESSAGES.servicePortNumber,
      'body.namespace': MESSAGES.namespaceNameRequired,
      'body.environmentIds': MESSAGES.environmentRequired,
    });
    const noPort = await call(owner, 'POST', '/api/applications', { ...valid('x'), port: undefined });
    expect(noPort.body).toContain(MESSAGES.servicePortRequired);
    // another workspace's environment, repository or pipeline is not this workspace's
    const theirs = (await call(stranger, 'GET', '/api/environments')).json() as Environment[];
    const foreign = await call(
      owner,
      'POST',
      '/api/applications',
      valid('x', { environmentIds: [theirs[0]!.id] }),
    );
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ details: [{ path: 'body.environmentIds' }] });
    const noRepo = await call(owner, 'POST', '/api/applications', valid('x', { repositoryId: randomUUID() }));
    expect(noRepo.json()).toMatchObject({ details: [{ path: 'body.repositoryId' }] });
  });

  it('creates one with its environments, refuses the name twice, and answers its repository and pipeline', async () => {
    const res = await call(owner, 'POST', '/api/applications', valid('orders'));
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as ApplicationDetail;
    expect(created).toMatchObject({
      name: 'orders',
      repositoryName: 'orders',
      repositoryUrl: repository.url,
      branch: 'main',
      pipelineName: 'build',
      serviceType: 'ClusterIP',
      port: 8080,
      namespace: 'shop',
      health: 'unknown',
      runs: [],
      imageTags: [],
    });
    expect(created.environments.map((e) => [e.environmentName, e.health, e.healthMessage])).toEqual([
      ['development', 'unknown', 'Not deployed yet'],
      ['staging', 'unknown', 'Not deployed yet'],
    ]);
    expect((await call(owner, 'POST', '/api/applications', valid('orders'))).statusCode).toBe(409);
    expect((await call(stranger, 'GET', `/api/applications/${created.id}`)).statusCode).toBe(404);
  });

  it('shows health from the deployment records: the worst environment wins, and filters by environment', async () => {
    const created = (await call(owner, 'POST', '/api/applications', valid('cart'))).json() as Application;
    const record = (environmentId: string, health: string) =>
      t.db.database.db.insert(deployments).values({
        id: randomUUID(),
        workspaceId: owner.workspaceId,
        environmentId,
        name: 'cart',
        namespace: 'shop',
        image: `${image('cart')}:abc`,
        health,
      });
    await record(envs.development!, 'healthy');
    await record(envs.staging!, 'degraded');
    const list = await call(owner, 'GET', '/api/applications?name=car');
    const cart = (list.json() as Application[]).find((a) => a.id === created.id)!;
    expect(cart.health).toBe('degraded');
    expect(cart.environments.map((e) => [e.environmentName, e.health, e.image])).toEqual([
      ['development', 'healthy', `${image('cart')}:abc`],
      ['staging', 'degraded', `${image('cart')}:abc`],
    ]);
    const inProduction = await call(owner, 'GET', `/api/applications?environmentId=${envs.production}`);
    expect((inProduction.json() as Application[]).map((a) => a.name)).not.toContain('cart');
    const inStaging = await call(owner, 'GET', `/api/applications?environmentId=${envs.staging}`);
    expect((inStaging.json() as Application[]).map((a) => a.name)).toContain('cart');
  });

  it('keeps name and namespace, changes the rest, and deletes with an audit record of each', async () => {
    const created = (await call(owner, 'POST', '/api/applications', valid('search'))).json() as Application;
    const rename = await call(owner, 'PUT', `/api/applications/${created.id}`, {
      name: 'other',
      namespace: 'x',
    });
    expect(rename.statusCode).toBe(400);
    expect(rename.body).toContain(MESSAGES.nameOrNamespaceImmutable);
    const changed = await call(owner, 'PUT', `/api/applications/${created.id}`, {
      port: 9090,
      serviceType: 'NodePort',
      environmentIds: [envs.production],
      pipelineId: null,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      port: 9090,
      serviceType: 'NodePort',
      pipelineId: null,
      namespace: 'shop',
    });
    expect((changed.json() as Application).environments.map((e) => e.environmentName)).toEqual([
      'production',
    ]);
    expect((await call(owner, 'DELETE', `/api/applications/${created.id}`)).statusCode).toBe(204);
    expect((await call(owner, 'GET', `/api/applications/${created.id}`)).statusCode).toBe(404);
    const audit = (await t.db.database.db.execute(
      sql`SELECT action FROM audit_events WHERE target_id = ${created.id} ORDER BY id`,
    )) as unknown as { rows: Array<{ action: string }> };
    // the refused rename is recorded too, without a target (validation ran before the handler)
    expect(audit.rows.map((r) => r.action)).toEqual([
      'application.create',
      'application.update',
      'application.delete',
    ]);
  });

  it('lists the image’s tags from Slipway’s registry', async () => {
    const created = (await call(owner, 'POST', '/api/applications', valid('tagged'))).json() as Application;
    const sa = await call(owner, 'POST', '/api/service-accounts', {
      name: 'pusher',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      workspaces: [{ workspaceId: owner.workspaceId, role: 'developer' }],
    });
    const auth = `Basic ${Buffer.from(`x:${(sa.json() as { token: string }).token}`).toString('base64')}`;
    const config = Buffer.from('{"os":"linux"}');
    const digest = `sha256:${createHash('sha256').update(config).digest('hex')}`;
    const name = `${owner.workspaceId}/tagged`;
    const blob = await t.app.inject({
      method: 'POST',
      url: `/v2/${name}/blobs/uploads/?digest=${digest}`,
      headers: { authorization: auth, 'content-type': 'application/octet-stream' },
      payload: config,
    });
    expect(blob.statusCode, blob.body).toBe(201);
    const manifest = JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest, size: config.length },
      layers: [],
    });
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v2/${name}/manifests/v1.0.0`,
      headers: { authorization: auth, 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
      payload: manifest,
    });
    expect(put.statusCode, put.body).toBe(201);
    const detail = (await call(owner, 'GET', `/api/applications/${created.id}`)).json() as ApplicationDetail;
    expect(detail.imageTags.map((x) => x.tag)).toEqual(['v1.0.0']);
  });

  it('starts its pipeline when its branch is pushed to its hosted repository, filling the declared params', async () => {
    const created = (await call(owner, 'POST', '/api/applications', valid('pushed'))).json() as Application;
    const sa = await call(owner, 'POST', '/api/service-accounts', {
      name: 'git-pusher',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      workspaces: [{ workspaceId: owner.workspaceId, role: 'developer' }],
    });
    const token = (sa.json() as { token: string }).token;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    const dir = mkdtempSync(path.join(tmpdir(), 'slipway-app-push-'));
    try {
      const git = (...args: string[]) =>
        run('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], {
          cwd: dir,
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, GIT_TERMINAL_PROMPT: '0' },
        });
      await git('init', '--quiet', '--initial-branch=main');
      writeFileSync(path.join(dir, 'index.js'), 'console.log("orders")\n');
      await git('add', '.');
      await git('commit', '--quiet', '-m', 'first');
      const head = (await git('rev-parse', 'HEAD')).stdout.trim();
      const url = `http://x:${token}@127.0.0.1:${port}/git/${owner.workspaceId}/orders.git`;
      await git('push', '--quiet', url, 'HEAD:main');
      const started = await waitFor(async () => {
        const rows = (await t.db.database.db.execute(
          sql`SELECT params, trigger FROM pipeline_runs WHERE pipeline_id = ${pipelineId}`,
        )) as unknown as { rows: Array<{ params: Record<string, string>; trigger: Record<string, string> }> };
        return rows.rows.find((r) => r.trigger.kind === 'push' && r.trigger.id === created.id);
      });
      expect(started.params).toEqual({
        'git-revision': head,
        image: `${image('pushed')}:${head.slice(0, 12)}`,
      });
      expect(started.trigger).toMatchObject({ kind: 'push', commit: head, branch: 'main' });
      // a push to another branch starts nothing more
      await git('push', '--quiet', url, 'HEAD:feature');
      const detail = (
        await call(owner, 'GET', `/api/applications/${created.id}`)
      ).json() as ApplicationDetail;
      expect(
        detail.runs.filter((r) => r.trigger.kind === 'push' && r.trigger.id === created.id),
      ).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
