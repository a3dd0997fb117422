import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PipelineRunDetail } from '@slipway/contracts';
import { parseDefinition } from '../../pipelines/definition/index.js';
import { freePort } from '../../../test-support/free-port.js';
import { createGitRepo } from '../../../test-support/git-http-server.js';
import { createSignedInUser, type TestUser } from '../../../test-support/identity.js';
import {
  buildahAvailable,
  buildahRequired,
  registryAvailable,
  REGISTRY_BIN,
  startOciRegistry,
  tarFiles,
  type OciRegistry,
} from '../../../test-support/oci-registry.js';
import { createTestApp, type TestApp } from '../../../test-support/test-app.js';
import { FINISHED, waitFor } from '../../pipeline-runs/pipeline-runs.test-helper.js';
import { BUILDAH_TASK } from './buildah.js';

const runnable = (buildahAvailable && registryAvailable) || buildahRequired;
if (!runnable)
  console.log(
    `buildah tests skipped: ${buildahAvailable ? '' : 'no buildah on PATH; '}${registryAvailable ? '' : `no docker-registry at ${REGISTRY_BIN}`}`,
  );

/** git clone of a local repository, then the built-in buildah task pushing to the registry. */
const BUILD = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: build-image }
spec:
  params:
    - { name: repo, type: string }
    - { name: image, type: string }
  workspaces: [{ name: src }]
  results:
    - { name: digest, value: $(tasks.build.results.IMAGE_DIGEST) }
  tasks:
    - name: clone
      taskRef: { name: git-clone }
      params: [{ name: url, value: $(params.repo) }]
      workspaces: [{ name: output, workspace: src }]
    - name: build
      runAfter: [clone]
      taskRef: { name: buildah }
      params:
        - { name: IMAGE, value: $(params.image) }
        - { name: DOCKERFILE, value: ./Containerfile }
        - { name: TLS_VERIFY, value: "false" }
      workspaces: [{ name: source, workspace: src }]
`;

/**
 * The real thing: a pipeline run by the engine and the local executor clones a real git
 * repository, builds its Containerfile (FROM scratch, so nothing is pulled) with buildah (chroot
 * isolation, vfs storage, its own root in the step's home under the data directory) and pushes
 * to a real registry, whose HTTP API then serves the manifest and the layer.
 */
describe.skipIf(!runnable)('built-in buildah task: builds and pushes to a real OCI registry', () => {
  let t: TestApp;
  let user: TestUser;
  let registry: OciRegistry;
  let dir: string;
  /** where the test app listens, so the sandboxed step can push to Slipway's own registry */
  let appPort: number;

  beforeAll(async () => {
    appPort = await freePort();
    dir = mkdtempSync(path.join(tmpdir(), 'slipway-buildah-'));
    createGitRepo(path.join(dir, 'app'), {
      Containerfile: 'FROM scratch\nCOPY hello.txt /srv/hello.txt\nLABEL org.slipway.test=buildah\n',
      'hello.txt': 'hello from slipway\n',
    });
    registry = await startOciRegistry();
    // the clone reads a file:// repository, which the operator must allow, on a path the sandbox
    // sees read-only; the push reaches the loopback registry, which the sandbox's network must allow
    chmodSync(dir, 0o711);
    t = await createTestApp({
      SLIPWAY_GIT_ALLOW: 'file',
      SLIPWAY_SANDBOX_READ_ONLY_PATHS: path.join(dir, 'app'),
      SLIPWAY_SANDBOX_NET_ALLOW: `127.0.0.1:${new URL(registry.url).port},127.0.0.1:${appPort}`,
    });
    await t.app.listen({ port: appPort, host: '127.0.0.1' });
    user = await createSignedInUser(t.app, t.db.database);
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await registry?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs clone → build, and the registry serves the pushed manifest, its layer and its digest', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/pipelines',
      headers: user.headers,
      payload: { name: 'build-image', definition: BUILD },
    });
    expect(created.statusCode).toBe(201);
    const image = `${registry.host}/slipway/hello:v1`;
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/pipelineruns',
      headers: user.headers,
      payload: {
        pipelineId: created.json().id,
        params: { repo: `file://${path.join(dir, 'app')}`, image },
      },
    });
    expect(started.statusCode).toBe(201);
    const id = started.json().id as string;
    const run = await waitFor(async () => {
      const found = (
        await t.app.inject({ method: 'GET', url: `/api/pipelineruns/${id}`, headers: user.headers })
      ).json() as PipelineRunDetail;
      return FINISHED.includes(found.status) && found;
    }, 120_000);
    const logs = (
      await t.app.inject({ method: 'GET', url: `/api/pipelineruns/${id}/logs`, headers: user.headers })
    ).body;
    expect({ status: run.status, reason: run.reason }, logs).toEqual({
      status: 'succeeded',
      reason: 'Succeeded',
    });
    const build = run.taskRuns.find((r) => r.name === 'build')!;
    expect(build.results!.IMAGE_URL).toBe(image);
    expect(build.results!.IMAGE_DIGEST).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(run.results).toEqual({ digest: build.results!.IMAGE_DIGEST });
    expect(build.steps[0]).toMatchObject({ name: 'build-and-push', image: 'quay.io/buildah/stable' });

    const pushed = await registry.manifest('slipway/hello', 'v1');
    expect(pushed.status).toBe(200);
    expect(pushed.digest).toBe(build.results!.IMAGE_DIGEST);
    expect(pushed.manifest!.layers).toHaveLength(1);
    const layer = pushed.manifest!.layers[0]!;
    expect(layer.mediaType).toMatch(/tar\+gzip$/);
    const files = tarFiles(gunzipSync(await registry.blob('slipway/hello', layer.digest)));
    expect(files.get('srv/hello.txt')).toBe('hello from slipway\n');
    const config = JSON.parse(
      (await registry.blob('slipway/hello', pushed.manifest!.config.digest)).toString('utf8'),
    ) as { config?: { Labels?: Record<string, string> } };
    expect(config.config?.Labels).toMatchObject({ 'org.slipway.test': 'buildah' });

    // buildah's storage lived in the step's scratch home under the data directory, and went with it
    const scratch = path.join(t.config.dataDir, 'scratch');
    expect(existsSync(scratch) ? readdirSync(scratch) : []).toEqual([]);
    expect((await registry.manifest('slipway/hello', 'v2')).status).toBe(404);
  }, 150_000);

  it('pushes to a registry that needs credentials with the workspace secret docker-config (Slipway’s own)', async () => {
    const call = (method: 'POST' | 'GET', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });
    const account = await call('POST', '/api/service-accounts', {
      name: 'builder',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      workspaces: [{ workspaceId: user.workspaceId, role: 'developer' }],
    });
    expect(account.statusCode, account.body).toBe(201);
    const host = `127.0.0.1:${appPort}`;
    const auth = Buffer.from(`x:${(account.json() as { token: string }).token}`).toString('base64');
    const secret = await call('POST', '/api/secrets', {
      name: 'docker-config',
      values: { '.dockerconfigjson': JSON.stringify({ auths: { [host]: { auth } } }) },
    });
    expect(secret.statusCode, secret.body).toBe(201);
    const pipeline = await call('POST', '/api/pipelines', {
      name: 'build-private',
      definition: BUILD.replace('build-image', 'build-private'),
    });
    expect(pipeline.statusCode, pipeline.body).toBe(201);
    const image = `${host}/${user.workspaceId}/hello:v1`;
    const started = await call('POST', '/api/pipelineruns', {
      pipelineId: pipeline.json().id,
      params: { repo: `file://${path.join(dir, 'app')}`, image },
    });
    expect(started.statusCode, started.body).toBe(201);
    const run = await waitFor(async () => {
      const found = (await call('GET', `/api/pipelineruns/${started.json().id}`)).json() as PipelineRunDetail;
      return FINISHED.includes(found.status) && found;
    }, 120_000);
    const logs = (await call('GET', `/api/pipelineruns/${run.id}/logs`)).body;
    expect(run.status, logs).toBe('succeeded');
    // the credentials never reach the log
    expect(logs).not.toContain(auth);
    const tags = await fetch(`http://${host}/v2/${user.workspaceId}/hello/tags/list`, {
      headers: { authorization: `Basic ${auth}` },
    });
    expect(await tags.json()).toEqual({ name: `${user.workspaceId}/hello`, tags: ['v1'] });
  }, 150_000);
});

describe('built-in buildah task without buildah', () => {
  it('fails with exit code 127 and names the missing binary', () => {
    const parsed = parseDefinition(BUILDAH_TASK);
    if (!parsed.ok) throw new Error('invalid');
    const script = parsed.tasks[0]!.spec.steps[0]!.script!;
    const home = mkdtempSync(path.join(tmpdir(), 'slipway-no-buildah-'));
    try {
      // a PATH without buildah: sh's builtins are all the script needs to get to the check
      const ran = spawnSync('/bin/sh', ['-c', script], { env: { PATH: home, HOME: home }, encoding: 'utf8' });
      expect({ status: ran.status, stderr: ran.stderr }).toEqual({
        status: 127,
        stderr: 'buildah is not installed on this host\n',
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
