import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AppTemplate,
  ApplicationDetail,
  Environment,
  PipelineRunDetail,
  QuickSetupRegistries,
  QuickSetupRepository,
  QuickSetupResult,
} from '@slipway/contracts';
import { Keys, loadMasterKey } from '../../platform/keys.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { buildahAvailable, buildahRequired } from '../../test-support/oci-registry.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { SecretReader } from '../secrets/secret-reader.js';
import { SqlSecretsStore } from '../secrets/secrets-store.js';

const run = promisify(execFile);
const CREATE = '/api/admin/quicksetup/createonboardingresources';

describe('quick setup', () => {
  let t: TestApp;
  let owner: TestUser;
  let base: string;
  let scratch: string;
  let envs: Record<string, string>;
  let cloneToken: string;

  beforeAll(async () => {
    // the run stays queued: its steps would pull images, which these machines cannot
    t = await createTestApp({ SLIPWAY_ENGINE: 'off' });
    owner = await createSignedInUser(t.app, t.db.database);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    scratch = mkdtempSync(path.join(tmpdir(), 'slipway-quick-setup-'));
    const list = (await call('GET', '/api/environments')).json() as Environment[];
    envs = Object.fromEntries(list.map((e) => [e.name, e.id]));
    const account = await call('POST', '/api/service-accounts', {
      name: 'cloner',
      expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      workspaces: [{ workspaceId: owner.workspaceId, role: 'viewer' }],
    });
    expect(account.statusCode, account.body).toBe(201);
    cloneToken = (account.json() as { token: string }).token;
  });
  afterAll(async () => {
    await t.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** the server's public address as the registry and clone URLs name it */
  const host = () => `127.0.0.1:${t.config.port}`;
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: owner.headers, ...(payload ? { payload } : {}) });
  const names = async (url: string) =>
    ((await call('GET', `${url}?_end=100`)).json() as Array<{ name: string }>).map((r) => r.name).sort();
  /** Everything quick setup could leave behind, to compare before and after a refused call. */
  const inventory = async () => ({
    repositories: await names('/api/admin/repository'),
    pipelines: await names('/api/pipelines'),
    applications: await names('/api/applications'),
    secrets: await names('/api/secrets'),
    gitDirs: ['broken', 'shop'].filter((n) =>
      existsSync(path.join(t.config.dataDir, 'git', owner.workspaceId, `${n}.git`)),
    ),
    activeAccounts: (
      (await call('GET', '/api/service-accounts')).json() as Array<{ name: string; revokedAt: string | null }>
    )
      .filter((a) => !a.revokedAt)
      .map((a) => a.name),
  });
  const git = (cwd: string, ...args: string[]) =>
    run('git', args, {
      cwd,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: scratch,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_TERMINAL_PROMPT: '0',
      },
    });

  it('lists the app templates: Node.js, Python, Go, Java and a static site with their files', async () => {
    const res = await call('GET', '/api/admin/appaccelerator/types');
    expect(res.statusCode).toBe(200);
    const templates = res.json() as AppTemplate[];
    expect(templates.map((x) => x.id)).toEqual(['nodejs', 'python', 'go', 'java', 'static-site']);
    expect(templates[0]).toMatchObject({
      language: 'javascript',
      defaults: { port: 8080, serviceType: 'ClusterIP', baseImage: 'node:20-alpine' },
    });
    expect(templates[0]!.files).toEqual(
      expect.arrayContaining(['Dockerfile', 'k8s/app.yaml', '.tekton/pipeline.yaml']),
    );
    expect(JSON.stringify(templates)).not.toContain('createServer');
  });

  it('lists a new hosted repository first, then the workspace’s', async () => {
    const made = await call('POST', '/api/admin/repository', { name: 'existing', description: 'Ours' });
    expect(made.statusCode, made.body).toBe(201);
    const res = await call('GET', '/api/admin/quicksetup/repositories');
    expect(res.statusCode).toBe(200);
    const options = res.json() as QuickSetupRepository[];
    expect(options.map((o) => [o.kind, o.name, o.seeded])).toEqual([
      ['hosted', 'New hosted repository', true],
      ['existing', 'existing', false],
    ]);
    expect(options[1]!.url).toBe(`http://${host()}/git/${owner.workspaceId}/existing.git`);
  });

  it('lists Slipway’s registry with the workspace’s prefix, and no providers yet', async () => {
    const res = await call('GET', '/api/admin/quicksetup/registries');
    expect(res.statusCode).toBe(200);
    const body = res.json() as QuickSetupRegistries;
    expect(body.registries).toEqual([
      expect.objectContaining({
        id: 'slipway',
        prefix: `${host()}/${owner.workspaceId}`,
        insecure: true,
      }),
    ]);
    expect(body.providers).toEqual([]);
    expect(body.note).toMatch(/not supported yet/);
  });

  it('answers 400 naming the field, and 404 for an unknown template, making nothing', async () => {
    const before = await inventory();
    const cases: Array<[string, object, number, string]> = [
      [`${CREATE}?id=nodejs`, { name: 'Bad_Name', environmentIds: [envs.development] }, 400, 'body.name'],
      [
        `${CREATE}?id=nodejs`,
        { name: 'ok', port: 'abc', environmentIds: [envs.development] },
        400,
        'body.port',
      ],
      [`${CREATE}?id=nodejs`, { name: 'ok' }, 400, 'body.environmentIds'],
      [
        `${CREATE}?id=nodejs`,
        { name: 'ok', environmentIds: [envs.development], namespace: 'Bad NS' },
        400,
        'body.namespace',
      ],
      [CREATE, { name: 'ok', environmentIds: [envs.development] }, 400, 'id'],
      [
        `${CREATE}?id=cobol`,
        { name: 'ok', environmentIds: [envs.development] },
        404,
        'App template not found',
      ],
      [
        `${CREATE}?id=nodejs`,
        { name: 'ok', environmentIds: [envs.development], repositoryId: 'nope' },
        400,
        'body.repositoryId',
      ],
    ];
    for (const [url, body, status, mention] of cases) {
      const res = await call('POST', url, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}: ${res.body}`).toBe(status);
      expect(res.body).toContain(mention);
    }
    expect(await inventory()).toEqual(before);
  });

  it('undoes every step when a later one fails: no repository, git data, secret, pipeline or live account stays', async () => {
    const before = await inventory();
    expect(before.secrets).not.toContain('docker-config');
    // the application refuses an environment that is not the workspace's: after the repository,
    // its seed commit, both secrets, the registry's service account and the pipeline were made
    const res = await call('POST', `${CREATE}?id=python`, {
      name: 'broken',
      environmentIds: [envs.development, '00000000-0000-4000-8000-000000000000'],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ details: [{ path: 'body.environmentIds' }] });
    expect(await inventory()).toEqual(before);
    // and the name is free again
    const again = await call('POST', `${CREATE}?id=python`, {
      name: 'broken',
      environmentIds: [envs.development],
    });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('makes a seeded hosted repository, its credentials, pipeline and application, and starts the first run', async () => {
    const res = await call('POST', `${CREATE}?id=nodejs`, {
      name: 'shop',
      description: 'The shop',
      environmentIds: [envs.development, envs.staging],
      port: 80,
    });
    expect(res.statusCode, res.body).toBe(201);
    const result = res.json() as QuickSetupResult;
    const image = `${host()}/${owner.workspaceId}/shop`;
    expect(result).toMatchObject({ templateId: 'nodejs', image, secrets: ['shop-git'] });
    expect(result.commit).toMatch(/^[0-9a-f]{40}$/);
    // this server's address is loopback, which the git URL policy refuses, but its own address is
    // admitted (decision 031): the clone step will reach the hosted repository; the deploy step
    // has no cluster, and the setup says so
    expect(result.warnings).toEqual([expect.stringMatching(/^The deploy step needs a cluster/)]);

    // the repository clones with the git CLI: the template's files in one commit
    const work = mkdtempSync(path.join(scratch, 'shop-'));
    const url = result.repositoryUrl.replace(
      /^https?:\/\/[^/]+/,
      base.replace('://', `://x-token:${encodeURIComponent(cloneToken)}@`),
    );
    await git(work, 'clone', '--quiet', url, 'checkout');
    const checkout = path.join(work, 'checkout');
    const files = (await git(checkout, 'ls-files')).stdout.trim().split('\n').sort();
    expect(files).toEqual(
      [
        '.dockerignore',
        '.tekton/pipeline.yaml',
        'Dockerfile',
        'README.md',
        'app.js',
        'app.test.js',
        'k8s/app.yaml',
        'package.json',
        'server.js',
      ].sort(),
    );
    expect((await git(checkout, 'rev-list', '--count', 'HEAD')).stdout.trim()).toBe('1');
    expect((await git(checkout, 'rev-parse', 'HEAD')).stdout.trim()).toBe(result.commit);
    expect(readFileSync(path.join(checkout, 'k8s/app.yaml'), 'utf8')).toContain('port: 80');

    const pipeline = await call('GET', `/api/pipelines/${result.pipelineId}`);
    expect(pipeline.statusCode).toBe(200);
    expect(pipeline.json()).toMatchObject({ name: 'shop' });

    const application = (
      await call('GET', `/api/applications/${result.applicationId}`)
    ).json() as ApplicationDetail;
    expect(application).toMatchObject({
      name: 'shop',
      description: 'The shop',
      repositoryId: result.repositoryId,
      branch: 'main',
      image,
      pipelineId: result.pipelineId,
      serviceType: 'ClusterIP',
      port: 80,
      namespace: 'apps',
    });
    expect(application.environments.map((e) => e.environmentId).sort()).toEqual(
      [envs.development, envs.staging].sort(),
    );

    const firstRun = (await call('GET', `/api/pipelineruns/${result.runId}`)).json() as PipelineRunDetail;
    expect(firstRun).toMatchObject({
      pipelineId: result.pipelineId,
      params: {
        'git-url': result.repositoryUrl,
        'git-revision': result.commit,
        image: `${image}:${result.commit!.slice(0, 12)}`,
      },
      trigger: { kind: 'quick-setup', id: result.applicationId },
    });

    expect(await names('/api/secrets')).toEqual(['broken-git', 'docker-config', 'registry-pull', 'shop-git']);
    // the credentials work as the pipeline's tasks use them: git-clone's token, buildah's docker config
    const reader = new SecretReader(
      new SqlSecretsStore(t.db.database.db),
      new Keys(loadMasterKey(t.config.masterKey, t.config.dataDir)),
    );
    const gitToken = await reader.value(owner.workspaceId, 'shop-git', 'token');
    const withGitToken = result.repositoryUrl.replace(
      /^https?:\/\/[^/]+/,
      base.replace('://', `://x-access-token:${encodeURIComponent(gitToken)}@`),
    );
    await git(work, 'clone', '--quiet', withGitToken, 'by-deploy-token');
    const config = JSON.parse(
      await reader.value(owner.workspaceId, 'docker-config', '.dockerconfigjson'),
    ) as {
      auths: Record<string, { auth: string }>;
    };
    expect(Object.keys(config.auths)).toEqual([host()]);
    const upload = await t.app.inject({
      method: 'POST',
      url: `/v2/${owner.workspaceId}/shop/blobs/uploads/`,
      headers: { authorization: `Basic ${config.auths[host()]!.auth}` },
    });
    expect(upload.statusCode, upload.body).toBe(202);
    // the cluster's pull secret reads the registry but cannot push to it
    const pull = JSON.parse(await reader.value(owner.workspaceId, 'registry-pull', '.dockerconfigjson')) as {
      auths: Record<string, { auth: string }>;
    };
    const pullAuth = { authorization: `Basic ${pull.auths[host()]!.auth}` };
    const tags = await t.app.inject({
      method: 'GET',
      url: `/v2/${owner.workspaceId}/shop/tags/list`,
      headers: pullAuth,
    });
    expect(tags.statusCode, tags.body).not.toBe(401);
    expect(tags.statusCode, tags.body).not.toBe(403);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/v2/${owner.workspaceId}/shop/blobs/uploads/`,
      headers: pullAuth,
    });
    expect([401, 403]).toContain(refused.statusCode);
    const audit = await call('GET', '/api/audit?action=quicksetup.create');
    expect(audit.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'quicksetup.create', targetId: result.applicationId }),
      ]),
    );
  });

  it('refuses a caller who may not make what quick setup makes', async () => {
    const before = await inventory();
    const res = await t.app.inject({
      method: 'POST',
      url: `${CREATE}?id=nodejs`,
      headers: { authorization: `Bearer ${cloneToken}`, 'x-workspace-id': owner.workspaceId },
      payload: { name: 'viewer-app', environmentIds: [envs.development] },
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(await inventory()).toEqual(before);
  });

  it('answers 409 for a name already set up, leaving nothing more', async () => {
    const before = await inventory();
    const res = await call('POST', `${CREATE}?id=go`, { name: 'shop', environmentIds: [envs.development] });
    expect(res.statusCode, res.body).toBe(409);
    expect(await inventory()).toEqual(before);
  });

  it('uses an existing repository without seeding it', async () => {
    const existing = (
      (await call('GET', '/api/admin/quicksetup/repositories')).json() as QuickSetupRepository[]
    ).find((r) => r.name === 'existing')!;
    const res = await call('POST', `${CREATE}?id=static-site`, {
      name: 'site',
      environmentIds: [envs.development],
      repositoryId: existing.id,
      serviceType: 'NodePort',
    });
    expect(res.statusCode, res.body).toBe(201);
    const result = res.json() as QuickSetupResult;
    expect(result).toMatchObject({ repositoryId: existing.id, commit: null, secrets: ['site-git'] });
    const firstRun = (await call('GET', `/api/pipelineruns/${result.runId}`)).json() as PipelineRunDetail;
    expect(firstRun.params).toMatchObject({ 'git-revision': 'main', image: `${result.image}:latest` });
  });

  /**
   * What the pipeline's clone and build-and-push tasks do, with the credentials quick setup made:
   * the deploy token clones, buildah builds the Dockerfile and pushes with the docker config. The
   * base image is `scratch` here (no registry is reachable from these machines to pull nginx).
   */
  it.skipIf(!buildahAvailable && !buildahRequired)(
    'the seeded static site clones, builds with buildah and pushes to Slipway’s registry',
    { timeout: 180_000 },
    async () => {
      const res = await call('POST', `${CREATE}?id=static-site`, {
        name: 'pages',
        environmentIds: [envs.development],
      });
      expect(res.statusCode, res.body).toBe(201);
      const result = res.json() as QuickSetupResult;
      const reader = new SecretReader(
        new SqlSecretsStore(t.db.database.db),
        new Keys(loadMasterKey(t.config.masterKey, t.config.dataDir)),
      );
      const work = mkdtempSync(path.join(scratch, 'pages-'));
      const token = await reader.value(owner.workspaceId, 'pages-git', 'token');
      await git(
        work,
        'clone',
        '--quiet',
        result.repositoryUrl.replace(/^https?:\/\/[^/]+/, base.replace('://', `://x-access-token:${token}@`)),
        'source',
      );
      const authfile = path.join(work, 'auth.json');
      // buildah pushes to the server's public address; here that is the test server's own port
      const listening = new URL(base).host;
      const config = JSON.parse(
        await reader.value(owner.workspaceId, 'docker-config', '.dockerconfigjson'),
      ) as {
        auths: Record<string, { auth: string }>;
      };
      writeFileSync(authfile, JSON.stringify({ auths: { [listening]: config.auths[host()] } }));
      const buildah = (...args: string[]) =>
        run(
          'buildah',
          [
            '--storage-driver',
            'vfs',
            '--root',
            path.join(work, 'root'),
            '--runroot',
            path.join(work, 'run'),
            ...args,
          ],
          { env: { ...process.env, BUILDAH_ISOLATION: 'chroot', HOME: work }, maxBuffer: 16 * 1024 * 1024 },
        );
      // the run's image param, as quick setup started it
      const firstRun = (await call('GET', `/api/pipelineruns/${result.runId}`)).json() as PipelineRunDetail;
      const image = String(firstRun.params.image);
      const target = image.replace(host(), listening);
      await buildah(
        'bud',
        '--isolation',
        'chroot',
        '--build-arg',
        'BASE_IMAGE=scratch',
        '-t',
        target,
        path.join(work, 'source'),
      );
      await buildah('push', '--tls-verify=false', '--authfile', authfile, target, `docker://${target}`);
      const tags = await t.app.inject({
        method: 'GET',
        url: `/v2/${owner.workspaceId}/pages/tags/list`,
        headers: { authorization: `Basic ${Buffer.from(`x:${cloneToken}`).toString('base64')}` },
      });
      expect(tags.json()).toEqual({
        name: `${owner.workspaceId}/pages`,
        tags: [result.commit!.slice(0, 12)],
      });
    },
  );
});
