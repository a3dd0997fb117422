import { describe, expect, it } from 'vitest';
import {
  PULL_SECRET,
  QuickSetupService,
  REGISTRY_SECRET,
  type QuickSetupLinks,
} from './quick-setup-service.js';

/** Links that record what is made and removed, in order; `failAt` rejects that call. */
function recordingLinks(failAt: string) {
  const log: string[] = [];
  const step =
    <T>(name: string, answer: T) =>
    async (...args: unknown[]): Promise<T> => {
      const label = name === 'secrets.create' ? `${name} ${(args[1] as { name: string }).name}` : name;
      log.push(label);
      if (name === failAt) throw new Error(`${name} failed`);
      return answer;
    };
  const links = {
    repositories: {
      create: step('repositories.create', {
        id: 'repo-1',
        name: 'shop',
        kind: 'hosted',
        url: 'http://slipway.test/git/ws/shop.git',
        defaultBranch: 'main',
      }),
      remove: step('repositories.remove', undefined),
      get: step('repositories.get', undefined),
      list: step('repositories.list', { rows: [], total: 0 }),
      createToken: step('repositories.createToken', { id: 'token-1', token: 'slpdt_x' }),
      revokeToken: step('repositories.revokeToken', undefined),
    },
    git: { commit: step('git.commit', 'a'.repeat(40)) },
    registryPrefix: () => 'slipway.test/ws',
    insecureRegistry: true,
    secrets: {
      create: step('secrets.create', { id: 'secret' }),
      remove: step('secrets.remove', undefined),
      list: step('secrets.list', { rows: [], total: 0 }),
    },
    serviceAccounts: {
      create: step('serviceAccounts.create', { id: 'sa-1', name: 'registry', token: 'slw_sa_x' }),
      revoke: step('serviceAccounts.revoke', undefined),
    },
    pipelines: {
      create: step('pipelines.create', { id: 'pipeline-1' }),
      remove: step('pipelines.remove', undefined),
    },
    applications: {
      create: step('applications.create', { id: 'app-1' }),
      remove: step('applications.remove', undefined),
    },
    runs: { create: step('runs.create', { id: 'run-1' }) },
    gitPolicy: { check: async () => undefined },
  } as unknown as QuickSetupLinks;
  return { links, log };
}

const INPUT = { name: 'shop', description: '', environmentIds: ['env-1'], repositoryId: null };
const CALLER = { actorId: 'user-1', organisationId: 'org-1' };

describe('QuickSetupService.create', () => {
  it('makes the pieces in order and answers their ids', async () => {
    const { links, log } = recordingLinks('none');
    const result = await new QuickSetupService(links).create('ws', 'nodejs', INPUT, CALLER);
    expect(result).toMatchObject({ applicationId: 'app-1', pipelineId: 'pipeline-1', runId: 'run-1' });
    expect(result.secrets).toEqual(['shop-git', REGISTRY_SECRET, PULL_SECRET]);
    expect(log.filter((l) => !l.endsWith('.list'))).toEqual([
      'repositories.create',
      'repositories.createToken',
      'secrets.create shop-git',
      'git.commit',
      'serviceAccounts.create',
      `secrets.create ${REGISTRY_SECRET}`,
      'serviceAccounts.create',
      `secrets.create ${PULL_SECRET}`,
      'pipelines.create',
      'applications.create',
      'runs.create',
    ]);
  });

  it('when the first run cannot start, removes everything it made, last first, and rethrows', async () => {
    const { links, log } = recordingLinks('runs.create');
    await expect(new QuickSetupService(links).create('ws', 'nodejs', INPUT, CALLER)).rejects.toThrow(
      'runs.create failed',
    );
    expect(log.slice(log.indexOf('runs.create') + 1)).toEqual([
      'applications.remove',
      'pipelines.remove',
      'secrets.remove',
      'serviceAccounts.revoke',
      'secrets.remove',
      'serviceAccounts.revoke',
      'secrets.remove',
      'repositories.revokeToken',
      'repositories.remove',
    ]);
  });

  it('when the seed commit fails, removes the secret, token and repository made before it', async () => {
    const { links, log } = recordingLinks('git.commit');
    await expect(new QuickSetupService(links).create('ws', 'go', INPUT, CALLER)).rejects.toThrow();
    expect(log.slice(log.indexOf('git.commit') + 1)).toEqual([
      'secrets.remove',
      'repositories.revokeToken',
      'repositories.remove',
    ]);
  });
});
