import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EXTERNAL_SOURCE_PATH_MESSAGE,
  EXTERNAL_SOURCE_URL_MESSAGE,
  type ExternalPipeline,
  type PipelineRunDetail,
} from '@slipway/contracts';
import {
  commitFiles,
  createGitRepo,
  startGitHttpServer,
  type GitHttpServer,
} from '../../test-support/git-http-server.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { sshdAvailable, sshdRequired, startSshd } from '../../test-support/sshd.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { memberOf } from '../pipeline-catalogue/catalogue-test-helpers.js';
import { FINISHED, waitFor } from '../pipeline-runs/pipeline-runs.test-helper.js';

const definition = (word: string) => `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: from-git }
spec:
  tasks:
    - name: say
      taskSpec:
        steps:
          - { name: echo, image: alpine, script: 'echo "says ${word}"' }
`;
/** a YAML syntax error: the flow sequence on line 4 never ends (reported at line 5) */
const BROKEN = 'apiVersion: tekton.dev/v1\nkind: Pipeline\nmetadata: { name: x }\nspec: [unclosed\n';
const TOKEN = 'glpat-external-sync-9876';

describe('external pipelines: definitions read from real git repositories', () => {
  let t: TestApp;
  let owner: TestUser;
  let dir: string;
  let repo: string;
  let server: GitHttpServer;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'slipway-external-'));
    repo = path.join(dir, 'repos', 'pipelines');
    createGitRepo(repo, { '.tekton/pipeline.yaml': definition('one'), 'other.yaml': definition('other') });
    server = await startGitHttpServer({ root: path.join(dir, 'repos'), token: TOKEN });
    // file:// repositories and the loopback git servers need the operator's explicit allow
    t = await createTestApp({ SLIPWAY_GIT_ALLOW: 'file,127.0.0.1' });
    owner = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(async () => {
    await t?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, who = owner) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const source = (over: object = {}) => ({ url: `file://${repo}`, path: '.tekton/pipeline.yaml', ...over });
  const create = async (name: string, over: object = {}) => {
    const res = await call('POST', '/api/external-pipelines', { name, source: source(over) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as ExternalPipeline;
  };
  const runOf = async (pipelineId: string) => {
    const res = await call('POST', '/api/pipelineruns', { pipelineId });
    expect(res.statusCode, res.body).toBe(201);
    return waitFor(async () => {
      const run = (await call('GET', `/api/pipelineruns/${res.json().id}`)).json() as PipelineRunDetail;
      return FINISHED.includes(run.status) && run;
    }, 20_000);
  };
  const logs = async (runId: string) => (await call('GET', `/api/pipelineruns/${runId}/logs`)).body;

  it('adds one from a file:// repository: version 1 is the file as it is, and it is a pipeline', async () => {
    const before = Date.now();
    const p = await create('from-git');
    expect(p).toMatchObject({
      name: 'from-git',
      version: 1,
      syncError: null,
      source: {
        kind: 'git',
        url: `file://${repo}`,
        revision: 'main',
        path: '.tekton/pipeline.yaml',
        secret: null,
      },
    });
    expect(new Date(p.lastSyncedAt!).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const exported = await call('GET', `/api/pipelines/${p.id}/export`);
    expect(exported.body).toBe(definition('one'));
    const list = await call('GET', '/api/external-pipelines');
    expect(list.headers['x-total-count']).toBe('1');
    expect((list.json() as ExternalPipeline[]).map((x) => x.id)).toEqual([p.id]);
    const pipelines = (await call('GET', '/api/pipelines?name=from-git')).json() as { id: string }[];
    expect(pipelines.map((x) => x.id)).toEqual([p.id]);
    // the pipeline view says where it comes from, so the editor can show it read-only
    expect((await call('GET', `/api/pipelines/${p.id}`)).json().source).toEqual(p.source);
    // its definition is the repository's: the pipeline editor may not change it
    const edit = await call('PUT', `/api/pipelines/${p.id}`, { definition: definition('two') });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().message).toContain('comes from its git repository');
  });

  it('refuses bad sources naming the field and the rule, and stores nothing', async () => {
    const refuse = async (over: object, field: string, message: string | RegExp) => {
      const res = await call('POST', '/api/external-pipelines', { name: 'refused', source: source(over) });
      expect(res.statusCode, res.body).toBe(400);
      const detail = (res.json().details as { path: string; message: string }[]).find((d) =>
        d.path.startsWith(`body.source.${field}`),
      );
      expect(detail?.message, res.body).toMatch(message);
    };
    await refuse({ url: 'ftp://example.com/x.git' }, 'url', EXTERNAL_SOURCE_URL_MESSAGE);
    await refuse({ path: '../escape.yaml' }, 'path', EXTERNAL_SOURCE_PATH_MESSAGE);
    await refuse({ path: 'README.md' }, 'path', EXTERNAL_SOURCE_PATH_MESSAGE);
    await refuse({ revision: '--upload-pack=touch' }, 'revision', /^Revision must be/);
    await refuse({ path: 'missing.yaml' }, 'path', /^missing\.yaml not found at revision "main"/);
    await refuse(
      { revision: 'no-such-branch' },
      'revision',
      /git fetch of revision "no-such-branch" .* failed/,
    );
    await refuse(
      { url: `file://${dir}/no-repo-here` },
      'url',
      /git fetch of revision "main" from file:\/\/.* failed/,
    );
    await refuse({ secret: 'no-such-secret' }, 'secret', /no-such-secret/);
    commitFiles(repo, { 'broken.yaml': BROKEN }, 'broken');
    await refuse(
      { path: 'broken.yaml' },
      'path',
      /^broken\.yaml is not a valid pipeline: line 5, column \d+: not valid YAML or JSON$/,
    );
    // the file's text is never quoted back, only where it broke
    commitFiles(repo, { 'leaky.yaml': 'db-password: "hunter2-top-secret\nmore: x\n' }, 'leaky');
    await refuse(
      { path: 'leaky.yaml' },
      'path',
      /^leaky\.yaml is not a valid pipeline: line \d+, column \d+: not valid YAML or JSON$/,
    );
    const list = await call('GET', '/api/external-pipelines?name=refused');
    expect(list.headers['x-total-count']).toBe('0');
    expect((await call('GET', '/api/pipelines?name=refused')).headers['x-total-count']).toBe('0');
  });

  it('refuses file:// and internal hosts unless SLIPWAY_GIT_ALLOW names them', async () => {
    const strict = await createTestApp();
    try {
      const user = await createSignedInUser(strict.app, strict.db.database);
      const post = (url: string) =>
        strict.app.inject({
          method: 'POST',
          url: '/api/external-pipelines',
          headers: user.headers,
          payload: { name: 'refused', source: source({ url }) },
        });
      const refused = async (url: string, message: RegExp) => {
        const res = await post(url);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().details).toEqual([
          { path: 'body.source.url', message: expect.stringMatching(message) },
        ]);
        expect(res.json().message).toMatch(/^source\.url: /);
      };
      const asked = server.refused + server.served;
      const PRIVATE = /is a private or loopback address; an operator can allow it with SLIPWAY_GIT_ALLOW$/;
      await refused(`file://${repo}`, /^file:\/\/ URLs and local paths .* SLIPWAY_GIT_ALLOW=file$/);
      await refused(`${server.url}/pipelines`, PRIVATE);
      await refused('http://[::1]:9/r.git', PRIVATE);
      await refused('https://10.1.2.3/r.git', PRIVATE);
      await refused('http://169.254.169.254/latest/meta-data', PRIVATE);
      await refused(
        'ssh://git@localhost:22/r.git',
        /^localhost \((127\.0\.0\.1|::1)\) is a private or loopback/,
      );
      expect(server.refused + server.served, 'the loopback git server was never asked').toBe(asked);
      expect(
        (await strict.app.inject({ method: 'GET', url: '/api/external-pipelines', headers: user.headers }))
          .headers['x-total-count'],
      ).toBe('0');
    } finally {
      await strict.close();
    }
  });

  it('syncs: unchanged keeps the version, a change is the next version, an invalid file keeps the last good one', async () => {
    const p = await create('synced');
    const sync = async () => {
      const res = await call('POST', `/api/external-pipelines/${p.id}/sync`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { outcome: string; pipeline: ExternalPipeline };
    };
    expect(await sync()).toMatchObject({ outcome: 'unchanged', pipeline: { version: 1, syncError: null } });
    commitFiles(repo, { '.tekton/pipeline.yaml': definition('two') }, 'two');
    expect(await sync()).toMatchObject({ outcome: 'changed', pipeline: { version: 2, syncError: null } });
    expect((await call('GET', `/api/pipelines/${p.id}/export`)).body).toBe(definition('two'));
    const goodAt = (await call('GET', `/api/external-pipelines/${p.id}`)).json().lastSyncedAt as string;

    commitFiles(repo, { '.tekton/pipeline.yaml': BROKEN }, 'broken');
    const failed = await sync();
    expect(failed.outcome).toBe('failed');
    expect(failed.pipeline).toMatchObject({ version: 2, lastSyncedAt: goodAt });
    expect(failed.pipeline.syncError).toMatch(
      /^\.tekton\/pipeline\.yaml is not a valid pipeline: .*line 5, column/,
    );

    // a run syncs first, fails to, and runs the last good version, saying so
    const run = await runOf(p.id);
    expect(run).toMatchObject({ status: 'succeeded', pipelineVersion: 2 });
    expect(run.message).toMatch(
      /^Sync failed \(the pipeline file is missing or not valid\), so this run uses version 2, last synced .*line 5/,
    );
    expect(run.message).toContain('Tasks Completed: 1');
    expect(await logs(run.id)).toContain('says two');

    commitFiles(repo, { '.tekton/pipeline.yaml': definition('three') }, 'three');
    // no explicit sync: the run syncs first and runs version 3
    const next = await runOf(p.id);
    expect(next).toMatchObject({ status: 'succeeded', pipelineVersion: 3 });
    expect(next.message).not.toContain('Sync failed');
    expect(await logs(next.id)).toContain('says three');
    expect((await call('GET', `/api/external-pipelines/${p.id}`)).json()).toMatchObject({
      version: 3,
      syncError: null,
    });
  });

  it('runs the last synced version when the repository cannot be reached', async () => {
    const p = await create('unreachable');
    const moved = `${repo}-moved`;
    renameSync(repo, moved);
    try {
      const run = await runOf(p.id);
      expect(run).toMatchObject({ status: 'succeeded', pipelineVersion: 1 });
      expect(run.message).toMatch(
        /^Sync failed \(the repository could not be read\), so this run uses version 1/,
      );
      const view = (await call('GET', `/api/external-pipelines/${p.id}`)).json() as ExternalPipeline;
      expect(view.syncError).toMatch(/^git fetch of revision "main" from file:\/\/.* failed/);
    } finally {
      renameSync(moved, repo);
    }
    const again = await call('POST', `/api/external-pipelines/${p.id}/sync`);
    expect(again.json()).toMatchObject({ outcome: 'unchanged', pipeline: { syncError: null } });
  });

  it('reads a private repository over HTTP with the token of a workspace secret', async () => {
    const url = `${server.url}/pipelines`;
    const refusedBefore = server.refused;
    const without = await call('POST', '/api/external-pipelines', {
      name: 'private',
      source: source({ url }),
    });
    expect(without.statusCode).toBe(400);
    expect(without.json().details[0].path).toBe('body.source.url');
    expect(server.refused).toBeGreaterThan(refusedBefore);

    const secret = await call('POST', '/api/secrets', {
      name: 'git-lab',
      type: 'token',
      values: { token: TOKEN },
    });
    expect(secret.statusCode).toBe(201);
    const p = await create('private', { url, secret: 'git-lab' });
    expect(p.source).toMatchObject({ url, secret: 'git-lab' });
    expect((await call('GET', `/api/pipelines/${p.id}/export`)).body).toContain('says');

    await call('PUT', `/api/secrets/${secret.json().id}`, { values: { token: 'wrong-token-value' } });
    const failed = (await call('POST', `/api/external-pipelines/${p.id}/sync`)).json();
    expect(failed.outcome).toBe('failed');
    expect(failed.pipeline.syncError).toContain('git fetch');
    expect(failed.pipeline.syncError).not.toContain('wrong-token-value');
  });

  it.runIf(sshdAvailable || sshdRequired)(
    'reads a private repository over SSH with the key of a workspace secret, checking known_hosts when given',
    async () => {
      const sshd = await startSshd();
      try {
        const url = sshd.url(repo);
        const without = await call('POST', '/api/external-pipelines', {
          name: 'over-ssh',
          source: source({ url }),
        });
        expect(without.statusCode).toBe(400);
        expect(without.json().details[0]).toMatchObject({ path: 'body.source.url' });
        expect(without.json().details[0].message).toMatch(/Permission denied/);

        const tokenOnly = await call('POST', '/api/secrets', { name: 'not-a-key', values: { token: 'x' } });
        expect(tokenOnly.statusCode).toBe(201);
        const noKey = await call('POST', '/api/external-pipelines', {
          name: 'over-ssh',
          source: source({ url, secret: 'not-a-key' }),
        });
        expect(noKey.statusCode).toBe(400);
        expect(noKey.json().details[0]).toMatchObject({ path: 'body.source.secret' });
        expect(noKey.json().details[0].message).toContain('has no key "ssh-privatekey"');

        const secret = await call('POST', '/api/secrets', {
          name: 'deploy-key',
          type: 'ssh',
          values: { 'ssh-privatekey': sshd.privateKey },
        });
        expect(secret.statusCode, secret.body).toBe(201);
        const p = await create('over-ssh', { url, secret: 'deploy-key' });
        expect(p.source).toMatchObject({ url, secret: 'deploy-key' });
        expect((await call('GET', `/api/pipelines/${p.id}/export`)).body).toContain('says');

        // with known_hosts the host key is checked: the right one syncs, another is refused
        const keyId = secret.json().id as string;
        await call('PUT', `/api/secrets/${keyId}`, { values: { known_hosts: sshd.knownHosts } });
        const checked = (await call('POST', `/api/external-pipelines/${p.id}/sync`)).json();
        expect(checked).toMatchObject({ outcome: 'unchanged', pipeline: { syncError: null } });
        await call('PUT', `/api/secrets/${keyId}`, { values: { known_hosts: sshd.wrongKnownHosts } });
        const spoofed = (await call('POST', `/api/external-pipelines/${p.id}/sync`)).json();
        expect(spoofed.outcome).toBe('failed');
        expect(spoofed.pipeline.syncError).toContain('Host key verification failed');

        // a key the server does not know: refused, and no key material in the message
        await call('PUT', `/api/secrets/${keyId}`, {
          values: { 'ssh-privatekey': sshd.strangerKey, known_hosts: null },
        });
        const stranger = (await call('POST', `/api/external-pipelines/${p.id}/sync`)).json();
        expect(stranger.outcome).toBe('failed');
        expect(stranger.pipeline.syncError).toMatch(/Permission denied/);
        expect(stranger.pipeline.syncError).not.toContain('PRIVATE KEY');
        // the last good version still runs
        const run = await runOf(p.id);
        expect(run.status).toBe('succeeded');
      } finally {
        await sshd.stop();
      }
    },
  );

  it('edits name and source (a new file is the next version), deletes, and checks permissions', async () => {
    const p = await create('editable');
    const renamed = await call('PUT', `/api/external-pipelines/${p.id}`, {
      name: 'edited',
      description: 'd',
    });
    expect(renamed.json()).toMatchObject({ name: 'edited', description: 'd', version: 1 });
    const badSource = await call('PUT', `/api/external-pipelines/${p.id}`, {
      source: source({ path: 'nope.yaml' }),
    });
    expect(badSource.statusCode).toBe(400);
    expect((await call('GET', `/api/external-pipelines/${p.id}`)).json().source.path).toBe(
      '.tekton/pipeline.yaml',
    );
    const moved = await call('PUT', `/api/external-pipelines/${p.id}`, {
      source: source({ path: 'other.yaml' }),
    });
    expect(moved.json()).toMatchObject({ version: 2, source: { path: 'other.yaml' } });
    expect((await call('GET', `/api/pipelines/${p.id}/export`)).body).toBe(definition('other'));
    const taken = await call('PUT', `/api/external-pipelines/${p.id}`, { name: 'synced' });
    expect(taken.statusCode).toBe(409);

    const viewer = await memberOf(t.app, t.db.database, owner, 'viewer');
    expect((await call('GET', '/api/external-pipelines', undefined, viewer)).statusCode).toBe(200);
    expect((await call('POST', `/api/external-pipelines/${p.id}/sync`, undefined, viewer)).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', `/api/external-pipelines/${p.id}`, undefined, viewer)).statusCode).toBe(403);
    const stranger = await createSignedInUser(t.app, t.db.database);
    expect((await call('GET', `/api/external-pipelines/${p.id}`, undefined, stranger)).statusCode).toBe(404);

    expect((await call('DELETE', `/api/external-pipelines/${p.id}`)).statusCode).toBe(204);
    expect((await call('GET', `/api/external-pipelines/${p.id}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/pipelines/${p.id}`)).statusCode).toBe(404);

    // every change is in the audit trail, refusals too
    const audited = async (action: string) =>
      (await call('GET', `/api/audit?action=${action}&_end=100`)).json() as {
        targetId: string | null;
        outcome: string;
      }[];
    expect((await audited('externalPipeline.delete')).map((a) => [a.targetId, a.outcome])).toContainEqual([
      p.id,
      'success',
    ]);
    expect((await audited('externalPipeline.update')).map((a) => a.targetId)).toContain(p.id);
    expect((await audited('externalPipeline.sync')).length).toBeGreaterThan(0);
    expect((await audited('externalPipeline.create')).length).toBeGreaterThan(0);
  });
});
