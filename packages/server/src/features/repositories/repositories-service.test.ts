import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitUrlPolicy } from '../../platform/git-url-policy.js';
import { hashToken } from '../../platform/keys.js';
import { FakeRepositoriesStore } from './fake-repositories-store.js';
import { HostedGit } from './hosted-git.js';
import { RepositoriesService, REPOSITORY_NAME_TAKEN } from './repositories-service.js';

const WS = 'ws-1';

/** The repositories service over the fake store and a real HostedGit in a temporary directory. */
describe('RepositoriesService', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'slipway-repos-'));
  const git = new HostedGit(path.join(dir, 'git'), path.join(dir, 'empty'));
  const store = new FakeRepositoriesStore();
  const service = new RepositoriesService(store, git, new GitUrlPolicy(), 'https://slipway.example');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const hosted = (name: string) =>
    service.create(WS, { name, description: '', kind: 'hosted', defaultBranch: 'main' }, 'u1');

  it('makes a hosted repository with its git directory and clone URL, once per name', async () => {
    const repo = await hosted('orders');
    expect(repo).toMatchObject({ url: 'https://slipway.example/git/ws-1/orders.git', branches: [] });
    expect(existsSync(git.gitDir(WS, 'orders'))).toBe(true);
    await expect(hosted('orders')).rejects.toThrow(REPOSITORY_NAME_TAKEN);
  });

  it('shows the branches a commit made', async () => {
    const repo = await hosted('seeded');
    const sha = await git.commit(WS, 'seeded', 'main', { 'a.txt': { content: 'a' } }, 'first', {
      name: 'T',
      email: 't@example.com',
    });
    expect((await service.get(WS, repo.id)).branches).toEqual([{ name: 'main', commit: sha }]);
  });

  it('refuses an external URL that reads the server’s files, naming the field', async () => {
    await expect(
      service.create(
        WS,
        { name: 'local', description: '', kind: 'external', url: '/etc', defaultBranch: 'main' },
        null,
      ),
    ).rejects.toMatchObject({ statusCode: 400, details: [{ path: 'body.url' }] });
    expect(await store.findByName(WS, 'local')).toBeNull();
  });

  it('keeps name, changes the rest, and removes the git data with the record', async () => {
    const repo = await hosted('temp');
    expect(await service.update(WS, repo.id, { defaultBranch: 'trunk' })).toMatchObject({
      defaultBranch: 'trunk',
      name: 'temp',
    });
    await service.remove(WS, repo.id);
    expect(existsSync(git.gitDir(WS, 'temp'))).toBe(false);
    await expect(service.get(WS, repo.id)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('makes deploy tokens for hosted repositories only, keeping only their hash, and revokes them', async () => {
    const repo = await hosted('tokens');
    const made = await service.createToken(
      WS,
      repo.id,
      { name: 'ci', access: 'write', expiresInDays: 30 },
      'u1',
    );
    expect(made.token).toMatch(/^slpdt_/);
    expect((await store.tokenByHash(hashToken(made.token)))?.id).toBe(made.id);
    expect(JSON.stringify(await service.tokens(WS, repo.id))).not.toContain(made.token);
    await service.revokeToken(WS, repo.id, made.id);
    await expect(service.revokeToken(WS, repo.id, made.id)).rejects.toMatchObject({ statusCode: 404 });
    const external = await service.create(
      WS,
      {
        name: 'ext',
        description: '',
        kind: 'external',
        url: 'https://git.example.com/a.git',
        defaultBranch: 'main',
      },
      null,
    );
    await expect(service.tokens(WS, external.id)).rejects.toMatchObject({ statusCode: 400 });
  });
});
