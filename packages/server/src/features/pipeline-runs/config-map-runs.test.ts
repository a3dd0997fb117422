import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterCreated, PipelineRunDetail } from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { FINISHED, insertPipeline, waitFor } from './pipeline-runs.test-helper.js';

const CONFIGURED = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: configured }
spec:
  workspaces: [{ name: conf }, { name: scratch }]
  tasks:
    - name: show
      workspaces: [{ name: c, workspace: conf }, { name: s, workspace: scratch }]
      taskSpec:
        workspaces: [{ name: c }, { name: s }]
        stepTemplate:
          envFrom: [{ configMapRef: { name: app-config }, prefix: CFG_ }]
        steps:
          - name: env
            image: alpine
            env:
              - name: GREETING
                valueFrom: { configMapKeyRef: { name: app-config, key: greeting } }
            envFrom:
              - configMapRef: { name: app-config }
              - secretRef: { name: creds }
                prefix: SEC_
            script: |
              echo "greeting=$GREETING level=$level token=$SEC_token tmpl=\${CFG_level:-unset}"
          - name: files
            image: alpine
            script: |
              echo "file=$(cat $(workspaces.c.path)/etc/app.conf)"
              stat -c 'mode=%a' $(workspaces.c.path)/etc/app.conf
              echo "entries=$(ls $(workspaces.c.path))"
              test -z "$(ls -A $(workspaces.s.path))" && echo scratch-empty
              echo "tmpl=$CFG_level"
`;

const MISSING_KEY = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: missing-key }
spec:
  tasks:
    - name: show
      taskSpec:
        steps:
          - name: env
            image: alpine
            env:
              - name: NOPE
                valueFrom: { configMapKeyRef: { name: app-config, key: nope } }
            script: echo never
`;

const CACHED = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: cached }
spec:
  workspaces: [{ name: cache }]
  tasks:
    - name: t
      workspaces: [{ name: cache }]
      taskSpec:
        workspaces: [{ name: cache }]
        steps: [{ name: s, image: alpine, script: 'ls $(workspaces.cache.path)' }]
`;

describe('runs that use config maps (LocalExecutor)', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createSignedInUser(t.app, t.db.database);
    const post = async (url: string, payload: object) => {
      const res = await inject('POST', url, payload);
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string };
    };
    await post('/api/config-maps', {
      name: 'app-config',
      data: { greeting: 'hello', level: 'debug', 'app.conf': 'a=1\nb=2' },
    });
    await post('/api/secrets', { name: 'creds', values: { token: 's3cr3t-t0ken' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });

  const finished = (id: string) =>
    waitFor(async () => {
      const run = (await inject('GET', `/api/pipelineruns/${id}`)).json() as PipelineRunDetail;
      return FINISHED.includes(run.status) && run;
    }, 15_000);

  it('gives steps config map env, envFrom and a config map workspace of items', async () => {
    const pipelineId = await insertPipeline(t.db.database, user.workspaceId, CONFIGURED);
    const res = await inject('POST', '/api/pipelineruns', {
      pipelineId,
      workspaces: [
        {
          name: 'conf',
          configMap: { name: 'app-config', items: [{ key: 'app.conf', path: 'etc/app.conf' }] },
        },
        { name: 'scratch', emptyDir: {} },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const run = await finished(res.json().id);
    const logs = (await inject('GET', `/api/pipelineruns/${run.id}/logs?task=show`)).body;
    expect(run.status, logs).toBe('succeeded');
    // the step's own envFrom replaces the stepTemplate's; the secret's value is masked
    expect(logs).toContain('greeting=hello level=debug token=*** tmpl=unset');
    expect(logs).not.toContain('s3cr3t-t0ken');
    expect(logs).toContain('file=a=1\nb=2');
    expect(logs).toContain('mode=644');
    expect(logs).toContain('entries=etc');
    expect(logs).toContain('scratch-empty');
    expect(logs).toContain('tmpl=debug');
  });

  it('fails the task naming the step, variable and config map when a key is missing', async () => {
    const pipelineId = await insertPipeline(t.db.database, user.workspaceId, MISSING_KEY);
    const run = await finished((await inject('POST', '/api/pipelineruns', { pipelineId })).json().id);
    expect(run.status).toBe('failed');
    expect(run.taskRuns[0]).toMatchObject({
      status: 'failed',
      reason:
        'step "env": config map "app-config" (key "nope") for NOPE could not be read: config map "app-config" has no key "nope"',
    });
  });

  it('fails the run when a workspace names a config map that does not exist', async () => {
    const pipelineId = await insertPipeline(t.db.database, user.workspaceId, CONFIGURED);
    const res = await inject('POST', '/api/pipelineruns', {
      pipelineId,
      workspaces: [{ name: 'conf', configMap: { name: 'nope' } }],
    });
    const run = await finished(res.json().id);
    expect(run).toMatchObject({
      status: 'failed',
      reason: 'workspaces: workspace "conf": config map "nope" not found',
    });
  });

  it('refuses an item path that leaves the workspace', async () => {
    const pipelineId = await insertPipeline(t.db.database, user.workspaceId, CONFIGURED);
    const res = await inject('POST', '/api/pipelineruns', {
      pipelineId,
      workspaces: [
        { name: 'conf', configMap: { name: 'app-config', items: [{ key: 'app.conf', path: '../x' }] } },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(
      "path must be a relative path inside the workspace: no leading '/' and no '..'",
    );
  });

  it('refuses a volume binding on the local executor, and accepts it in an environment on a cluster', async () => {
    const pipelineId = await insertPipeline(t.db.database, user.workspaceId, CACHED);
    const res = await inject('POST', '/api/pipelineruns', {
      pipelineId,
      workspaces: [{ name: 'cache', persistentVolumeClaim: { claimName: 'build-cache' } }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message:
        'workspaces[0]: workspace "cache" is bound to a persistentVolumeClaim, which the local executor cannot provide',
    });
    const template = await inject('POST', '/api/pipelineruns', {
      pipelineId,
      workspaces: [{ name: 'cache', volumeClaimTemplate: { spec: {} } }],
    });
    expect(template.json().message).toContain('is bound to a volumeClaimTemplate');

    // an environment without a cluster runs locally too
    const envs = (await inject('GET', '/api/environments?_sort=name')).json() as {
      id: string;
      name: string;
    }[];
    const development = envs.find((e) => e.name === 'development')!;
    const local = await inject('POST', '/api/pipelineruns', {
      pipelineId,
      environmentId: development.id,
      workspaces: [{ name: 'cache', csi: { driver: 'x' } }],
    });
    expect(local.statusCode).toBe(400);
    expect(local.json().message).toContain('workspace "cache" is bound to a csi');

    const cluster = await inject('POST', '/api/clusters', {
      name: 'main',
      type: 'gke',
      publicRegistryPrefix: 'gcr.io/a',
    });
    expect(cluster.statusCode, cluster.body).toBe(201);
    const env = await inject('POST', '/api/environments', {
      name: 'on-cluster',
      type: 'other',
      clusterId: (cluster.json() as ClusterCreated).cluster.id,
      namespace: 'ci',
    });
    expect(env.statusCode, env.body).toBe(201);
    const remote = await inject('POST', '/api/pipelineruns', {
      pipelineId,
      environmentId: env.json().id,
      workspaces: [{ name: 'cache', persistentVolumeClaim: { claimName: 'build-cache' } }],
    });
    expect(remote.statusCode, remote.body).toBe(201);
    await inject('POST', `/api/pipelineruns/${remote.json().id}/abort`);
  });
});
