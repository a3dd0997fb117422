import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PipelineRunDetail } from '@slipway/contracts';
import {
  commitFiles,
  createGitRepo,
  git,
  startGitHttpServer,
  type GitHttpServer,
} from '../../../test-support/git-http-server.js';
import { createSignedInUser, type TestUser } from '../../../test-support/identity.js';
import { selfSignedCertificate } from '../../../test-support/slapd.js';
import { sshdAvailable, sshdRequired, startSshd, type SshPeer } from '../../../test-support/sshd.js';
import { createTestApp, type TestApp } from '../../../test-support/test-app.js';
import { FINISHED, waitFor } from '../../pipeline-runs/pipeline-runs.test-helper.js';

const TOKEN = 'ghp_private-clone-token-0123';

/** Clones with the built-in git-clone task, then checks the tree and that no token stays behind. */
const CLONE = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: clone-private }
spec:
  params:
    - { name: url, type: string }
    - { name: secret, type: string, default: git-token }
    - { name: revision, type: string, default: main }
    - { name: sshSecret, type: string, default: git-ssh }
  workspaces: [{ name: src }]
  tasks:
    - name: clone
      taskRef: { name: git-clone }
      params:
        - { name: url, value: $(params.url) }
        - { name: revision, value: $(params.revision) }
        - { name: tokenSecret, value: $(params.secret) }
        - { name: sshSecret, value: $(params.sshSecret) }
        - { name: sslVerify, value: "false" }
      workspaces: [{ name: output, workspace: src }]
    - name: check
      runAfter: [clone]
      workspaces: [{ name: ws, workspace: src }]
      taskSpec:
        workspaces: [{ name: ws }]
        steps:
          - name: show
            image: alpine
            workingDir: $(workspaces.ws.path)
            script: |
              echo "app says $(cat app.txt)"
              if grep -q "${TOKEN}" .git/config; then echo "the token stayed in .git/config" >&2; exit 1; fi
              git remote get-url origin
`;

/**
 * The built-in git-clone task against a real private git server: `git http-backend` behind
 * HTTPS (a self-signed certificate) that asks for a token by basic auth, as GitHub does.
 */
describe('built-in git-clone: a private repository over HTTPS with a token secret', () => {
  let t: TestApp;
  let user: TestUser;
  let server: GitHttpServer;
  let dir: string;
  let pipelineId: string;
  let head: string;
  let url: string;
  let sshd: SshPeer | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'slipway-git-clone-'));
    const certDir = path.join(dir, 'tls');
    mkdirSync(certDir);
    selfSignedCertificate(certDir);
    createGitRepo(path.join(dir, 'repos', 'app'), { 'app.txt': 'v1\n' });
    head = commitFiles(path.join(dir, 'repos', 'app'), { 'app.txt': 'v2\n' }, 'second');
    server = await startGitHttpServer({
      root: path.join(dir, 'repos'),
      token: TOKEN,
      tls: {
        key: readFileSync(path.join(certDir, 'key.pem'), 'utf8'),
        cert: readFileSync(path.join(certDir, 'cert.pem'), 'utf8'),
      },
    });
    url = `${server.url}/app`;
    if (sshdAvailable || sshdRequired) sshd = await startSshd();
    // the sandbox's host user passes through to the repositories bound read-only into every step
    chmodSync(dir, 0o711);
    // file:// and the loopback git servers (HTTPS, sshd) need the operator's explicit allow, in
    // git's policy and in the sandbox's network (its host loopback ports) and its read-only paths
    const ports = [new URL(server.url).port, ...(sshd ? [String(sshd.port)] : [])];
    t = await createTestApp({
      SLIPWAY_GIT_ALLOW: 'file,127.0.0.1',
      SLIPWAY_SANDBOX_NET_ALLOW: ports.map((p) => `127.0.0.1:${p}`).join(','),
      SLIPWAY_SANDBOX_READ_ONLY_PATHS: path.join(dir, 'repos'),
    });
    user = await createSignedInUser(t.app, t.db.database);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/pipelines',
      headers: user.headers,
      payload: { name: 'clone-private', definition: CLONE },
    });
    expect(created.statusCode).toBe(201);
    pipelineId = created.json().id;
  });
  afterAll(async () => {
    await t?.close();
    await server?.stop();
    await sshd?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = async (params: Record<string, string>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/pipelineruns',
      headers: user.headers,
      payload: { pipelineId, params },
    });
    expect(res.statusCode).toBe(201);
    return waitFor(async () => {
      const found = (
        await t.app.inject({
          method: 'GET',
          url: `/api/pipelineruns/${res.json().id}`,
          headers: user.headers,
        })
      ).json() as PipelineRunDetail;
      return FINISHED.includes(found.status) && found;
    }, 30_000);
  };
  const logs = async (runId: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/pipelineruns/${runId}/logs`, headers: user.headers }))
      .body;

  it('refuses the clone without a token: the server answered 401 and the run failed', async () => {
    const refusedBefore = server.refused;
    const done = await run({ url, secret: 'no-such-secret' });
    expect(done.status).toBe('failed');
    expect(done.taskRuns.find((r) => r.name === 'clone')?.status).toBe('failed');
    expect(server.refused).toBeGreaterThan(refusedBefore);
  });

  it('clones with the token from the workspace secret, masks it, and keeps it out of .git/config', async () => {
    const secret = await t.app.inject({
      method: 'POST',
      url: '/api/secrets',
      headers: user.headers,
      payload: { name: 'git-token', type: 'git', values: { token: TOKEN } },
    });
    expect(secret.statusCode).toBe(201);
    const done = await run({ url });
    expect(done.status).toBe('succeeded');
    const clone = done.taskRuns.find((r) => r.name === 'clone')!;
    expect(clone.results).toEqual({ commit: head, url });
    const text = await logs(done.id);
    expect(text).toContain('app says v2');
    expect(text).toContain(`[check/show] ${url}`);
    expect(text).not.toContain(TOKEN);
  });

  it('fails with a wrong token', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/secrets',
      headers: user.headers,
      payload: { name: 'wrong-token', values: { token: 'not-the-token' } },
    });
    const refusedBefore = server.refused;
    const done = await run({ url, secret: 'wrong-token' });
    expect(done.status).toBe('failed');
    expect(server.refused).toBeGreaterThan(refusedBefore);
  });

  it('checks out a given commit of a file:// repository (no token needed)', async () => {
    const first = git(path.join(dir, 'repos', 'app'), 'rev-parse', 'HEAD~1');
    const done = await run({ url: `file://${path.join(dir, 'repos', 'app')}`, revision: first });
    expect(done.status).toBe('succeeded');
    expect(done.taskRuns.find((r) => r.name === 'clone')!.results!.commit).toBe(first);
    expect(await logs(done.id)).toContain('app says v1');
  });

  it.runIf(sshdAvailable || sshdRequired)(
    'clones over SSH with the key of a workspace secret, checking the host key from known_hosts',
    async () => {
      const peer = sshd!;
      {
        const sshUrl = peer.url(path.join(dir, 'repos', 'app'));
        const refused = await run({ url: sshUrl, sshSecret: 'no-such-key' });
        expect(refused.status).toBe('failed');
        expect(await logs(refused.id)).toMatch(/Permission denied|Host key verification failed/);

        const secret = await t.app.inject({
          method: 'POST',
          url: '/api/secrets',
          headers: user.headers,
          payload: {
            name: 'deploy-key',
            type: 'ssh',
            values: { 'ssh-privatekey': peer.privateKey, known_hosts: peer.knownHosts },
          },
        });
        expect(secret.statusCode, secret.body).toBe(201);
        const done = await run({ url: sshUrl, sshSecret: 'deploy-key' });
        const text = await logs(done.id);
        expect(done.status, text).toBe('succeeded');
        expect(done.taskRuns.find((r) => r.name === 'clone')!.results).toEqual({ commit: head, url: sshUrl });
        expect(text).toContain('app says v2');
        expect(text).not.toContain('PRIVATE KEY');

        // the same key against a host whose key is not the one in known_hosts: refused
        await t.app.inject({
          method: 'PUT',
          url: `/api/secrets/${secret.json().id}`,
          headers: user.headers,
          payload: { values: { known_hosts: peer.wrongKnownHosts } },
        });
        const spoofed = await run({ url: sshUrl, sshSecret: 'deploy-key' });
        expect(spoofed.status).toBe('failed');
        expect(await logs(spoofed.id)).toContain('Host key verification failed');
      }
    },
  );
});

/** The git-clone task with nothing allowed: file://, loopback, private and metadata hosts fail the step. */
describe('built-in git-clone: SLIPWAY_GIT_ALLOW', () => {
  let t: TestApp;
  let user: TestUser;
  let dir: string;
  let repo: string;
  let pipelineId: string;

  const start = async (app: TestApp, who: TestUser, url: string) => {
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/pipelineruns',
      headers: who.headers,
      payload: { pipelineId, params: { url } },
    });
    expect(res.statusCode, res.body).toBe(201);
    const detail = await waitFor(async () => {
      const found = (
        await app.app.inject({
          method: 'GET',
          url: `/api/pipelineruns/${res.json().id}`,
          headers: who.headers,
        })
      ).json() as PipelineRunDetail;
      return FINISHED.includes(found.status) && found;
    }, 30_000);
    const logs = (
      await app.app.inject({
        method: 'GET',
        url: `/api/pipelineruns/${detail.id}/logs`,
        headers: who.headers,
      })
    ).body;
    return { detail, logs };
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'slipway-git-allow-'));
    repo = path.join(dir, 'app');
    createGitRepo(repo, { 'app.txt': 'v1\n' });
    t = await createTestApp();
    user = await createSignedInUser(t.app, t.db.database);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/pipelines',
      headers: user.headers,
      payload: { name: 'clone-private', definition: CLONE },
    });
    expect(created.statusCode).toBe(201);
    pipelineId = created.json().id;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails the clone step for file://, loopback, private, link-local and localhost URLs, fetching nothing', async () => {
    const PRIVATE =
      /param "url": .*is a private or loopback address; an operator can allow it with SLIPWAY_GIT_ALLOW/;
    const cases: Array<[string, RegExp]> = [
      [`file://${repo}`, /param "url": file:\/\/ URLs and local paths .*SLIPWAY_GIT_ALLOW=file/],
      [repo, /SLIPWAY_GIT_ALLOW=file/],
      ['http://127.0.0.1:9/app.git', PRIVATE],
      ['https://[::1]:9/app.git', PRIVATE],
      ['https://10.20.30.40/app.git', PRIVATE],
      ['http://169.254.169.254/latest/meta-data', PRIVATE],
      ['ssh://git@localhost:9/app.git', /localhost \((127\.0\.0\.1|::1)\) is a private or loopback address/],
    ];
    for (const [url, message] of cases) {
      const { detail, logs } = await start(t, user, url);
      expect(detail.status, url).toBe('failed');
      const clone = detail.taskRuns.find((r) => r.name === 'clone')!;
      expect(clone.status, url).toBe('failed');
      expect(logs, url).toMatch(message);
      expect(logs, url).not.toContain('Cloned');
    }
  });

  it('clones what an allow entry names, and only that', async () => {
    chmodSync(dir, 0o711);
    const allowed = await createTestApp({ SLIPWAY_GIT_ALLOW: 'file', SLIPWAY_SANDBOX_READ_ONLY_PATHS: dir });
    try {
      const who = await createSignedInUser(allowed.app, allowed.db.database);
      const created = await allowed.app.inject({
        method: 'POST',
        url: '/api/pipelines',
        headers: who.headers,
        payload: { name: 'clone-private', definition: CLONE },
      });
      pipelineId = created.json().id;
      const ok = await start(allowed, who, `file://${repo}`);
      expect(ok.detail.status, ok.logs).toBe('succeeded');
      expect(ok.logs).toContain('app says v1');
      const loopback = await start(allowed, who, 'http://127.0.0.1:9/app.git');
      expect(loopback.detail.status).toBe('failed');
      expect(loopback.logs).toMatch(/127\.0\.0\.1 is a private or loopback address/);
    } finally {
      await allowed.close();
    }
  });
});
