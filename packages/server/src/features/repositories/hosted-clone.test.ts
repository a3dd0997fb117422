import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeployTokenCreated, PipelineRunDetail, RepositoryDetail } from '@slipway/contracts';
import { freePort } from '../../test-support/free-port.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { FINISHED, waitFor } from '../pipeline-runs/pipeline-runs.test-helper.js';
import { HostedGit } from './hosted-git.js';
import path from 'node:path';

const CLONE = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: clone-hosted }
spec:
  params:
    - { name: git-url, type: string }
  workspaces: [{ name: src }]
  tasks:
    - name: clone
      taskRef: { name: git-clone }
      params:
        - { name: url, value: $(params.git-url) }
        - { name: tokenSecret, value: orders-git }
      workspaces: [{ name: output, workspace: src }]
    - name: show
      runAfter: [clone]
      workspaces: [{ name: source, workspace: src }]
      taskSpec:
        workspaces: [{ name: source }]
        steps:
          - name: cat
            image: busybox
            script: cat $(workspaces.source.path)/hello.txt
`;

/**
 * A pipeline clones a repository Slipway hosts, from inside its sandbox, with no operator
 * setting: the server's own address (here loopback) is admitted by the git URL policy and the
 * sandbox's network (decision 031), and a deploy token in a workspace secret opens it.
 */
describe('a sandboxed step clones a hosted repository', () => {
  let t: TestApp;
  let user: TestUser;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp({ SLIPWAY_PUBLIC_URL: `http://127.0.0.1:${port}` });
    await t.app.listen({ port, host: '127.0.0.1' });
    user = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });

  it('with the git-clone task and a deploy token', async () => {
    const repo = (await call('POST', '/api/admin/repository', { name: 'orders' })).json() as RepositoryDetail;
    const dataGit = path.join(t.config.dataDir, 'git');
    await new HostedGit(dataGit, path.join(dataGit, '.empty')).commit(
      user.workspaceId,
      'orders',
      'main',
      { 'hello.txt': { content: 'hello from a hosted repository\n' } },
      'first',
      { name: 'Test', email: 'test@example.com' },
    );
    const token = (
      await call('POST', `/api/admin/repository/${repo.id}/deploy-tokens`, { name: 'ci', access: 'read' })
    ).json() as DeployTokenCreated;
    expect(
      (await call('POST', '/api/secrets', { name: 'orders-git', values: { token: token.token } })).statusCode,
    ).toBe(201);
    const pipeline = await call('POST', '/api/pipelines', { name: 'clone-hosted', definition: CLONE });
    expect(pipeline.statusCode, pipeline.body).toBe(201);
    const started = await call('POST', '/api/pipelineruns', {
      pipelineId: pipeline.json().id,
      params: { 'git-url': repo.url },
    });
    expect(started.statusCode, started.body).toBe(201);
    const run = await waitFor(async () => {
      const found = (await call('GET', `/api/pipelineruns/${started.json().id}`)).json() as PipelineRunDetail;
      return FINISHED.includes(found.status) && found;
    }, 90_000);
    const logs = (await call('GET', `/api/pipelineruns/${run.id}/logs`)).body;
    expect(run.status, logs).toBe('succeeded');
    expect(logs).toContain('hello from a hosted repository');
    expect(logs).not.toContain(token.token);
  }, 120_000);
});
