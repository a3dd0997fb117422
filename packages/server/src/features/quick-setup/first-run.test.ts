import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApplicationDetail,
  EnvironmentDetail,
  PipelineRunDetail,
  QuickSetupResult,
} from '@slipway/contracts';
import { freePort } from '../../test-support/free-port.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { buildahAvailable, buildahRequired } from '../../test-support/oci-registry.js';
import { sandboxRequired, sandboxSupport } from '../../test-support/sandbox.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { attachCluster, type AttachedCluster } from '../clusters/attached-agent.test-helper.js';
import { FINISHED, waitFor } from '../pipeline-runs/pipeline-runs.test-helper.js';

const support = sandboxSupport();
const runnable =
  (support.available && support.network && buildahAvailable) || buildahRequired || sandboxRequired;
if (!runnable)
  console.log(`quick setup's first run skipped: ${support.reason || support.networkReason || 'no buildah'}`);

/**
 * The golden path on the server: quick setup's first run, as the engine runs it, goes green. The
 * clone reaches the hosted repository at the server's own address, the template's test runs in a
 * sandbox, buildah builds the Dockerfile (on `scratch`: no public base image can be pulled here)
 * and pushes to Slipway's own registry with the `docker-config` quick setup made, and the deploy
 * step applies the manifests through a real agent to a protocol-level Kubernetes API server and
 * waits for the Deployment to be available (this test plays the Deployment controller).
 */
describe.skipIf(!runnable)('quick setup: the first run', () => {
  let t: TestApp;
  let owner: TestUser;
  let cluster: AttachedCluster;
  let environmentId: string;

  beforeAll(async () => {
    const port = await freePort();
    // the server's public address is the one it listens on: the clone and the push reach it there
    t = await createTestApp({ PORT: String(port), HOST: '127.0.0.1' });
    await t.app.listen({ port, host: '127.0.0.1' });
    owner = await createSignedInUser(t.app, t.db.database);
    cluster = await attachCluster(t, owner);
    // the operator made the namespace the environment deploys to (the manifests do not)
    cluster.api.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apps' } });
    const envs = (await call('GET', '/api/environments?name=development')).json() as EnvironmentDetail[];
    environmentId = envs[0]!.id;
    // deploy to the cluster; build on this server (the test API server runs no pods)
    const bound = await call('PUT', `/api/environments/${environmentId}`, {
      clusterId: cluster.clusterId,
      namespace: 'apps',
      taskRunner: 'server',
    });
    expect(bound.statusCode, bound.body).toBe(200);
    expect(bound.json()).toMatchObject({ taskRunner: 'server', namespace: 'apps' });
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
    await t?.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: owner.headers, ...(payload ? { payload } : {}) });

  it('clones, tests, builds and pushes, deploys, and the application shows it healthy', async () => {
    const res = await call('POST', '/api/admin/quicksetup/createonboardingresources?id=nodejs', {
      name: 'hello',
      environmentIds: [environmentId],
      baseImage: 'scratch',
    });
    expect(res.statusCode, res.body).toBe(201);
    const result = res.json() as QuickSetupResult;
    expect(result.warnings).toEqual([]);

    // the Deployment controller's part: once applied, its one replica becomes available
    const runNow = async () =>
      (await call('GET', `/api/pipelineruns/${result.runId}`)).json() as PipelineRunDetail;
    const applied = await waitFor(async () => {
      const found = cluster.api.get('apps/v1', 'Deployment', 'hello', 'apps');
      if (found) return { deployment: found };
      const run = await runNow();
      return FINISHED.includes(run.status) && { run };
    }, 150_000);
    if (!('deployment' in applied)) {
      const logs = (await call('GET', `/api/pipelineruns/${result.runId}/logs`)).body;
      expect.fail(`the run ended before deploying: ${JSON.stringify(applied.run.taskRuns)}\n${logs}`);
    }
    const { deployment } = applied;
    expect(JSON.stringify(deployment)).toContain(`${result.image}:${result.commit!.slice(0, 12)}`);
    // the cluster pulls from Slipway's registry with the pull-only credentials quick setup made
    expect(deployment).toMatchObject({
      spec: { template: { spec: { imagePullSecrets: [{ name: 'slipway-pull-registry-pull' }] } } },
    });
    const pullSecret = cluster.api.get('v1', 'Secret', 'slipway-pull-registry-pull', 'apps') as unknown as {
      type: string;
      data: Record<string, string>;
    };
    expect(pullSecret.type).toBe('kubernetes.io/dockerconfigjson');
    const auths = JSON.parse(Buffer.from(pullSecret.data['.dockerconfigjson']!, 'base64').toString()) as {
      auths: Record<string, { auth: string }>;
    };
    expect(Object.keys(auths.auths)).toEqual([`127.0.0.1:${t.config.port}`]);
    cluster.api.setStatus('apps/v1', 'Deployment', 'apps', 'hello', {
      observedGeneration: 1,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
    });

    const run = await waitFor(async () => {
      const found = await runNow();
      return FINISHED.includes(found.status) && found;
    }, 60_000);
    const logs = (await call('GET', `/api/pipelineruns/${run.id}/logs`)).body;
    expect({ status: run.status, reason: run.reason }, logs).toEqual({
      status: 'succeeded',
      reason: 'Succeeded',
    });
    expect(run.taskRuns.map((r) => [r.name, r.status])).toEqual([
      ['clone', 'succeeded'],
      ['test', 'succeeded'],
      ['build-and-push', 'succeeded'],
      ['deploy', 'succeeded'],
    ]);
    // the template's own test ran (node --test's summary), and the image was built on scratch
    expect(logs).toMatch(/# pass 1/);
    expect(logs).toContain('STEP 1/7: FROM scratch');

    // the image is in Slipway's registry under the commit's tag
    const build = run.taskRuns.find((r) => r.name === 'build-and-push')!;
    expect(build.results!.IMAGE_DIGEST).toMatch(/^sha256:[0-9a-f]{64}$/);
    const app = (await call('GET', `/api/applications/${result.applicationId}`)).json() as ApplicationDetail;
    expect(app.imageTags.map((x) => [x.tag, x.digest])).toEqual([
      [result.commit!.slice(0, 12), build.results!.IMAGE_DIGEST],
    ]);
    // the overview: deployed to development, healthy, by this run
    expect(app.environments).toEqual([
      expect.objectContaining({ environmentId, health: 'healthy', runId: run.id }),
    ]);
  }, 240_000);
});
