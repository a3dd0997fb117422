import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MESSAGES,
  TOTAL_COUNT_HEADER,
  type DeployTokenCreated,
  type Repository,
  type RepositoryDetail,
} from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { credentialToken as gitToken } from '../../platform/auth/service-account-caller.js';
import { HostedGit } from './hosted-git.js';

const run = promisify(execFile);

describe('repositories and hosted git', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let base: string;
  let scratch: string;
  let developerToken: string;
  let viewerToken: string;
  let strangerToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createSignedInUser(t.app, t.db.database);
    stranger = await createSignedInUser(t.app, t.db.database);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
    scratch = mkdtempSync(path.join(tmpdir(), 'slipway-git-client-'));
    const account = async (who: TestUser, name: string, role: string) => {
      const res = await call(who, 'POST', '/api/service-accounts', {
        name,
        expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        workspaces: [{ workspaceId: who.workspaceId, role }],
      });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { token: string }).token;
    };
    developerToken = await account(owner, 'ci-bot', 'developer');
    viewerToken = await account(owner, 'reader-bot', 'viewer');
    strangerToken = await account(stranger, 'other-bot', 'project_admin');
  });
  afterAll(async () => {
    await t.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const call = (who: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

  /** The git CLI with no configuration of this machine's and no prompt for credentials. */
  const git = (cwd: string, ...args: string[]) =>
    run('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
      cwd,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: scratch,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_TERMINAL_PROMPT: '0',
      },
    });
  const urlWith = (repo: Repository, token: string) =>
    repo.url.replace(/^https?:\/\/[^/]+/, base.replace('://', `://x-token:${encodeURIComponent(token)}@`));
  const fresh = (name: string) => mkdtempSync(path.join(scratch, `${name}-`));

  const createHosted = async (name: string): Promise<RepositoryDetail> => {
    const res = await call(owner, 'POST', '/api/admin/repository', { name, description: 'A service' });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as RepositoryDetail;
  };

  it('makes a hosted repository with a clone URL on this server, and refuses bad names and duplicates', async () => {
    const repo = await createHosted('orders');
    expect(repo).toMatchObject({ name: 'orders', kind: 'hosted', defaultBranch: 'main', branches: [] });
    expect(repo.url).toMatch(new RegExp(`/git/${owner.workspaceId}/orders\\.git$`));
    const bad = await call(owner, 'POST', '/api/admin/repository', { name: 'My Repo' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(MESSAGES.smallcaseOrNumbers);
    const twice = await call(owner, 'POST', '/api/admin/repository', { name: 'orders' });
    expect(twice.statusCode).toBe(409);
    const branch = await call(owner, 'POST', '/api/admin/repository', { name: 'x', defaultBranch: 'a..b' });
    expect(branch.statusCode).toBe(400);
    expect(branch.body).toContain('defaultBranch');
  });

  it('records an external repository by URL and refuses one that reads the server’s files', async () => {
    const file = await call(owner, 'POST', '/api/admin/repository', {
      name: 'local',
      kind: 'external',
      url: 'file:///etc',
    });
    expect(file.statusCode).toBe(400);
    expect(file.json()).toMatchObject({ details: [{ path: 'body.url' }] });
    const none = await call(owner, 'POST', '/api/admin/repository', { name: 'nourl', kind: 'external' });
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('URL is required for an external repository');
    const ok = await call(owner, 'POST', '/api/admin/repository', {
      name: 'upstream',
      kind: 'external',
      url: 'https://git.example.com/team/upstream.git',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ kind: 'external', url: 'https://git.example.com/team/upstream.git' });
  });

  it('lists with the spec’s query: _end defaults to 10, repository_type_id and name filter, X-Total-Count', async () => {
    for (let i = 0; i < 11; i++) await createHosted(`svc-${String(i).padStart(2, '0')}`);
    const page = await call(owner, 'GET', '/api/admin/repository?_sort=name');
    expect(page.statusCode).toBe(200);
    expect((page.json() as Repository[]).length).toBe(10);
    expect(Number(page.headers[TOTAL_COUNT_HEADER.toLowerCase()])).toBe(13);
    const external = await call(owner, 'GET', '/api/admin/repository?repository_type_id=external');
    expect((external.json() as Repository[]).map((r) => r.name)).toEqual(['upstream']);
    const named = await call(owner, 'GET', '/api/admin/repository?name=SVC-1&_end=100');
    expect((named.json() as Repository[]).map((r) => r.name)).toEqual(['svc-10']);
    // another organisation sees none of them
    expect((await call(stranger, 'GET', '/api/admin/repository')).json()).toEqual([]);
  });

  it('clones and pushes with a service account token, shows the branch and audits the push', async () => {
    const repo = await createHosted('payments');
    const work = fresh('payments');
    await git(work, 'clone', '--quiet', urlWith(repo, developerToken), 'checkout');
    const checkout = path.join(work, 'checkout');
    writeFileSync(path.join(checkout, 'README.md'), '# payments\n');
    await git(checkout, 'add', 'README.md');
    await git(checkout, 'commit', '--quiet', '-m', 'first');
    await git(checkout, 'push', '--quiet', 'origin', 'HEAD:main');
    const head = (await git(checkout, 'rev-parse', 'HEAD')).stdout.trim();

    const detail = (await call(owner, 'GET', `/api/admin/repository/${repo.id}`)).json() as RepositoryDetail;
    expect(detail.branches).toEqual([{ name: 'main', commit: head }]);
    expect(detail.lastPushAt).not.toBeNull();
    const audit = (await t.db.database.db.execute(
      sql`SELECT actor_type, actor_label, target_id, detail FROM audit_events WHERE action = 'repository.push'`,
    )) as unknown as { rows: Array<Record<string, unknown>> };
    const record = audit.rows.find((r) => r.target_id === repo.id);
    expect(record).toMatchObject({
      actor_type: 'service_account',
      actor_label: 'ci-bot',
      detail: { name: 'payments', changes: [{ ref: 'refs/heads/main', before: null, after: head }] },
    });

    // a second clone gets the commit
    const again = fresh('payments-again');
    await git(again, 'clone', '--quiet', urlWith(repo, viewerToken), 'copy');
    expect(readFileSync(path.join(again, 'copy', 'README.md'), 'utf8')).toBe('# payments\n');
  });

  it('lets a viewer clone but not push, and refuses strangers, bad tokens and no token', async () => {
    const repo = await createHosted('catalog');
    const work = fresh('catalog');
    await git(work, 'clone', '--quiet', urlWith(repo, viewerToken), 'c');
    const checkout = path.join(work, 'c');
    writeFileSync(path.join(checkout, 'a.txt'), 'a');
    await git(checkout, 'add', 'a.txt');
    await git(checkout, 'commit', '--quiet', '-m', 'a');
    await expect(git(checkout, 'push', '--quiet', 'origin', 'HEAD:main')).rejects.toThrow(/403/);

    await expect(git(work, 'clone', '--quiet', urlWith(repo, strangerToken), 's')).rejects.toThrow(
      /not found|404/i,
    );
    await expect(git(work, 'clone', '--quiet', urlWith(repo, 'slw_sa_forged'), 'f')).rejects.toThrow(
      /Authentication failed|401/,
    );
    await expect(
      git(work, 'clone', '--quiet', repo.url.replace(/^https?:\/\/[^/]+/, base), 'n'),
    ).rejects.toThrow(/could not read Username|Authentication failed|401/);
    const anonymous = await fetch(
      `${repo.url.replace(/^https?:\/\/[^/]+/, base)}/info/refs?service=git-upload-pack`,
    );
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic /);
    // a session token is not a git credential
    const session = await fetch(
      `${repo.url.replace(/^https?:\/\/[^/]+/, base)}/info/refs?service=git-upload-pack`,
      {
        headers: { authorization: owner.headers.authorization! },
      },
    );
    expect(session.status).toBe(401);
  });

  it('deploy tokens: read clones only, write pushes, a revoked one stops working, and another repository’s is refused', async () => {
    const repo = await createHosted('billing');
    const other = await createHosted('billing-two');
    const make = async (id: string, access: 'read' | 'write') => {
      const res = await call(owner, 'POST', `/api/admin/repository/${id}/deploy-tokens`, {
        name: `${access}-key`,
        access,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as DeployTokenCreated;
    };
    const read = await make(repo.id, 'read');
    const write = await make(repo.id, 'write');
    const foreign = await make(other.id, 'write');
    expect(read.token).toMatch(/^slpdt_/);
    const listed = await call(owner, 'GET', `/api/admin/repository/${repo.id}/deploy-tokens`);
    expect(listed.body).not.toContain(read.token);
    expect((listed.json() as Array<{ name: string }>).map((x) => x.name).sort()).toEqual([
      'read-key',
      'write-key',
    ]);

    const work = fresh('billing');
    await git(work, 'clone', '--quiet', urlWith(repo, write.token), 'w');
    const checkout = path.join(work, 'w');
    writeFileSync(path.join(checkout, 'b.txt'), 'b');
    await git(checkout, 'add', 'b.txt');
    await git(checkout, 'commit', '--quiet', '-m', 'b');
    await git(checkout, 'push', '--quiet', urlWith(repo, write.token), 'HEAD:main');
    await expect(git(checkout, 'push', '--quiet', urlWith(repo, read.token), 'HEAD:other')).rejects.toThrow(
      /403/,
    );
    await git(work, 'clone', '--quiet', urlWith(repo, read.token), 'r');
    expect(existsSync(path.join(work, 'r', 'b.txt'))).toBe(true);
    await expect(git(work, 'clone', '--quiet', urlWith(repo, foreign.token), 'x')).rejects.toThrow(
      /not found|404/i,
    );

    const revoke = await call(owner, 'DELETE', `/api/admin/repository/${repo.id}/deploy-tokens/${read.id}`);
    expect(revoke.statusCode).toBe(204);
    await expect(git(work, 'clone', '--quiet', urlWith(repo, read.token), 'gone')).rejects.toThrow(
      /Authentication failed|401/,
    );
    expect(
      (await call(owner, 'DELETE', `/api/admin/repository/${repo.id}/deploy-tokens/${read.id}`)).statusCode,
    ).toBe(404);
  });

  it('serves only repository paths: traversal and odd names answer 404', async () => {
    const auth = { authorization: `Basic ${Buffer.from(`x:${developerToken}`).toString('base64')}` };
    for (const p of [
      `/git/${owner.workspaceId}/..%2F..%2Fetc.git/info/refs?service=git-upload-pack`,
      `/git/${owner.workspaceId}/Orders.git/info/refs?service=git-upload-pack`,
      `/git/..%2F${owner.workspaceId}/orders.git/info/refs?service=git-upload-pack`,
      `/git/${owner.workspaceId}/nothing-here.git/info/refs?service=git-upload-pack`,
    ]) {
      const res = await fetch(`${base}${p}`, { headers: auth });
      expect(res.status, p).toBe(404);
    }
    const dumb = await fetch(`${base}/git/${owner.workspaceId}/orders.git/info/refs`, { headers: auth });
    expect(dumb.status).toBe(403);
  });

  it('deleting a repository removes its git data and tokens', async () => {
    const repo = await createHosted('scratchpad');
    const dir = path.join(t.config.dataDir, 'git', owner.workspaceId, 'scratchpad.git');
    expect(existsSync(dir)).toBe(true);
    expect((await call(owner, 'DELETE', `/api/admin/repository/${repo.id}`)).statusCode).toBe(204);
    expect(existsSync(dir)).toBe(false);
    expect((await call(owner, 'GET', `/api/admin/repository/${repo.id}`)).statusCode).toBe(404);
  });

  it('commits files into a hosted repository without a work tree (what quick setup seeds)', async () => {
    const repo = await createHosted('seeded');
    const hosted = new HostedGit(
      path.join(t.config.dataDir, 'git'),
      path.join(t.config.dataDir, 'git', '.empty'),
    );
    const sha = await hosted.commit(
      owner.workspaceId,
      'seeded',
      'main',
      {
        'app/server.js': { content: 'console.log(1)\n' },
        'build.sh': { content: '#!/bin/sh\n', executable: true },
      },
      'Initial commit',
      { name: 'Slipway', email: 'slipway@localhost' },
    );
    const work = fresh('seeded');
    await git(work, 'clone', '--quiet', urlWith(repo, developerToken), 's');
    expect((await git(path.join(work, 's'), 'rev-parse', 'HEAD')).stdout.trim()).toBe(sha);
    expect((await git(path.join(work, 's'), 'ls-files', '-s', 'build.sh')).stdout).toMatch(/^100755 /);
  });

  it('reads the token git sends as Basic authentication or Bearer', () => {
    expect(gitToken(`Basic ${Buffer.from('x:abc').toString('base64')}`)).toBe('abc');
    expect(gitToken('Bearer xyz')).toBe('xyz');
    expect(gitToken(`Basic ${Buffer.from('nopassword').toString('base64')}`)).toBeNull();
    expect(gitToken('Digest foo')).toBeNull();
    expect(gitToken(undefined)).toBeNull();
  });
});
