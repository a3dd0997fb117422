import { describe, expect, it } from 'vitest';
import { expandMatrix } from './matrix.js';
import { resolveTaskRun, type ResolveContext } from './resolve-task-run.js';
import { buildAndDeploy, buildah, gitClone, kubectlDeploy, npmTest } from './test-fixtures.js';

const pipelineParams = {
  'repo-url': 'https://github.com/acme/app',
  revision: 'main',
  image: 'registry.local/app',
  deploy: 'true',
};
const base: ResolveContext = {
  params: pipelineParams,
  resultsDir: '/runs/r1/results/fetch-source',
  pipelineWorkspaces: { 'shared-data': '/runs/r1/ws/shared-data' },
  context: { pipelineRun: { name: 'bd-x7k2p', uid: 'u-1' }, taskRun: { name: 'bd-x7k2p-fetch-source' } },
};
const task = (name: string) => {
  const pipeline = buildAndDeploy();
  return [...pipeline.spec.tasks, ...pipeline.spec.finally!].find((t) => t.name === name)!;
};

describe('resolveTaskRun', () => {
  it('resolves git-clone: params over defaults, workspace and result paths in the script', () => {
    const run = resolveTaskRun(task('fetch-source'), gitClone(), base);
    expect(run.name).toBe('fetch-source');
    expect(run.params).toEqual({ url: 'https://github.com/acme/app', revision: 'main' });
    expect(run.results).toEqual(['commit', 'url']);
    expect(run.workspaces).toEqual({ output: '/runs/r1/ws/shared-data' });
    expect(run.retries).toBe(0);
    const [step] = run.steps;
    expect(step).toMatchObject({
      name: 'clone',
      image: 'alpine/git:2.43.0',
      env: { PARAM_URL: 'https://github.com/acme/app' },
    });
    expect(step?.script).toContain('git clone "$PARAM_URL" "/runs/r1/ws/shared-data"');
    expect(step?.script).toContain(
      `printf '%s' "$(git rev-parse HEAD)" > "/runs/r1/results/fetch-source/commit"`,
    );
    expect(step?.onError).toBe('stopAndFail');
  });

  it('resolves buildah: task results from earlier tasks, array expansion in args, stepTemplate env', () => {
    const run = resolveTaskRun(task('build'), buildah(), {
      ...base,
      resultsDir: '/r/build',
      taskResults: { 'fetch-source': { commit: '9f3e1a7' } },
    });
    expect(run.params.IMAGE).toBe('registry.local/app:9f3e1a7');
    expect(run.steps[0]).toMatchObject({
      command: ['buildah'],
      args: ['bud', '--tag', 'registry.local/app:9f3e1a7', '.'],
      workingDir: '/runs/r1/ws/shared-data',
      env: { STORAGE_DRIVER: 'vfs' },
    });
    // the optional dockerconfig workspace is bound to an optional pipeline workspace the run left out
    expect(run.workspaces).toEqual({ source: '/runs/r1/ws/shared-data' });
  });

  it('expands an array param given by the pipeline task', () => {
    const pt = {
      ...task('test'),
      params: [{ name: 'args', value: ['run', 'test:unit', '--', '--reporter=junit'] }],
    };
    const run = resolveTaskRun(pt, npmTest(), { ...base, resultsDir: '/r/test' });
    expect(run.steps[0]?.args).toEqual(['run', 'test:unit', '--', '--reporter=junit']);
  });

  it('turns secretKeyRef env into secretEnv and step timeouts into ms', () => {
    const run = resolveTaskRun(task('deploy'), kubectlDeploy(), {
      ...base,
      resultsDir: '/r/deploy',
      taskResults: { build: { IMAGE_DIGEST: 'sha256:abc' } },
    });
    expect(run.steps[0]).toMatchObject({
      env: {},
      secretEnv: [{ name: 'KUBECONFIG_DATA', secret: 'kubeconfig-staging', key: 'config' }],
      timeoutMs: 300_000,
      script: 'kubectl set image deployment/app app=registry.local/app@sha256:abc --namespace staging',
    });
  });

  it('resolves a finally inline taskSpec reading $(tasks.status) and the pipeline run name', () => {
    const run = resolveTaskRun(task('notify'), task('notify').taskSpec!, {
      ...base,
      resultsDir: '/r/notify',
      tasksStatus: 'Completed',
      taskStatuses: { deploy: 'None' },
    });
    expect(run.steps[0]?.script).toBe('echo "run bd-x7k2p finished Completed, deploy None"');
  });

  it('names the missing value when it cannot resolve', () => {
    expect(() => resolveTaskRun(task('build'), buildah(), base)).toThrow(
      '$(tasks.fetch-source.results.commit): no results from task "fetch-source"',
    );
    const unbound = { ...base, pipelineWorkspaces: {} };
    expect(() => resolveTaskRun(task('fetch-source'), gitClone(), unbound)).toThrow(
      'task "fetch-source" needs workspace "output": not bound',
    );
  });

  it('resolves each run of a matrix with its own params and timeout and retries of the pipeline task', () => {
    const pt = {
      ...task('test'),
      timeout: '10m',
      retries: 2,
      matrix: { params: [{ name: 'args', value: ['lint', 'test'] }] },
    };
    const spec = npmTest().spec;
    spec.params![0] = { name: 'args', type: 'string' };
    spec.steps[0]!.args = ['run', '$(params.args)'];
    const runs = expandMatrix(pt).map((p) =>
      resolveTaskRun(p, spec, { ...base, resultsDir: `/r/${p.name}` }),
    );
    expect(runs.map((r) => [r.name, r.steps[0]?.args, r.timeoutMs, r.retries])).toEqual([
      ['test-0', ['run', 'lint'], 600_000, 2],
      ['test-1', ['run', 'test'], 600_000, 2],
    ]);
  });
});
