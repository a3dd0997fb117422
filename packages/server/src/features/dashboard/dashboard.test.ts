import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard, Environment } from '@slipway/contracts';
import { clusters, deployments, pipelineRuns } from '../../platform/database/schema.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

const HELLO = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: hello }
spec:
  tasks:
    - name: say
      taskSpec:
        steps: [{ name: echo, image: busybox, script: echo hi }]
`;

describe('the dashboard', () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ SLIPWAY_ENGINE: 'off' });
    owner = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: object, headers = owner.headers) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const dashboard = async (headers = owner.headers) => {
    const res = await call('GET', '/api/dashboard', undefined, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Dashboard;
  };

  it('starts with nothing done and empty sections', async () => {
    const d = await dashboard();
    expect(d.gettingStarted).toEqual([
      { step: 'cluster', done: false },
      { step: 'application', done: false },
      { step: 'pipeline', done: false },
      { step: 'run', done: false },
      { step: 'deployment', done: false },
    ]);
    expect(d.applications).toMatchObject({ total: 0, attention: [] });
    expect(d.runs?.recent).toEqual([]);
    expect(d.clusters).toEqual([]);
  });

  it('ticks each step from what the workspace has, and puts failing things first', async () => {
    const db = t.db.database.db;
    const envs = (await call('GET', '/api/environments')).json() as Environment[];
    const pipeline = await call('POST', '/api/pipelines', { name: 'hello', definition: HELLO });
    const pipelineId = (pipeline.json() as { id: string }).id;
    for (const name of ['api', 'web']) {
      const res = await call('POST', '/api/applications', {
        name,
        image: `registry.example.com/acme/${name}`,
        serviceType: 'ClusterIP',
        port: 80,
        namespace: 'shop',
        environmentIds: [envs[0]!.id],
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    await db.insert(deployments).values({
      id: randomUUID(),
      workspaceId: owner.workspaceId,
      environmentId: envs[0]!.id,
      name: 'web',
      namespace: 'shop',
      health: 'degraded',
    });
    await db.insert(clusters).values([
      {
        id: randomUUID(),
        workspaceId: owner.workspaceId,
        name: 'good',
        type: 'gke',
        status: 'active',
        tokenHash: 'h1',
      },
      {
        id: randomUUID(),
        workspaceId: owner.workspaceId,
        name: 'gone',
        type: 'gke',
        status: 'not_active',
        tokenHash: 'h2',
      },
    ] as never);
    await db.insert(pipelineRuns).values({
      id: randomUUID(),
      workspaceId: owner.workspaceId,
      pipelineId,
      pipelineVersion: 1,
      number: 1,
      name: 'hello-1',
      status: 'failed',
      timeoutMs: 3_600_000,
      trigger: { kind: 'user', id: owner.userId },
    } as never);

    const d = await dashboard();
    expect(d.gettingStarted.every((s) => s.done)).toBe(true);
    expect(d.applications!.total).toBe(2);
    expect(d.applications!.byHealth.degraded).toBe(1);
    expect(d.applications!.attention[0]).toMatchObject({ name: 'web', health: 'degraded' });
    expect(d.runs!.lastWeek.failed).toBe(1);
    expect(d.runs!.recent[0]).toMatchObject({ name: 'hello-1', pipelineName: 'hello', status: 'failed' });
    expect(d.clusters!.map((c) => [c.name, c.status])).toEqual([
      ['gone', 'not_active'],
      ['good', 'active'],
    ]);
  });

  it('leaves out the sections the caller may not view', async () => {
    const role = await call('POST', '/api/roles', {
      name: 'Dashboard only',
      grants: [{ permission: 'workspace:view' }, { permission: 'pipelines:view' }],
    });
    expect(role.statusCode, role.body).toBe(201);
    const sa = await call('POST', '/api/service-accounts', {
      name: 'wallboard',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      workspaces: [{ workspaceId: owner.workspaceId, role: (role.json() as { id: string }).id }],
    });
    expect(sa.statusCode, sa.body).toBe(201);
    const headers = {
      authorization: (sa.json() as { token: string }).token,
      'x-workspace-id': owner.workspaceId,
    };
    const d = await dashboard(headers);
    expect(d.applications).toBeNull();
    expect(d.clusters).toBeNull();
    expect(d.runs).not.toBeNull();
  });
});
