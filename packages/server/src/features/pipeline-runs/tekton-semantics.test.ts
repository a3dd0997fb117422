import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeExecutor } from '../pipelines/executor/fake-executor.js';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { FINISHED, insertPipeline, runsOf, seedWorkspace, waitFor } from './pipeline-runs.test-helper.js';

/* Tekton's param, result and variable semantics through the whole engine (issue 14). */

const step = `{ name: s, image: alpine, script: "true" }`;

const RESULTS = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: typed }
spec:
  params:
    - name: tag
      default: "$(context.pipelineRun.name)-tag"
  workspaces:
    - name: cache
      optional: true
  results:
    - { name: images, type: array, value: "$(tasks.produce.results.images[*])" }
    - { name: first, value: "$(tasks.produce.results.images[0])" }
    - { name: url, value: "$(tasks.produce.results.image.url)" }
    - { name: report, value: "$(finally.report.results.summary)" }
    - { name: skipped, value: "$(tasks.cached.results.out)" }
  tasks:
    - name: produce
      taskSpec:
        results:
          - { name: images, type: array }
          - { name: image, properties: { url: {}, digest: {} } }
        steps: [${step}]
    - name: consume
      params:
        - { name: images, value: "$(tasks.produce.results.images[*])" }
        - { name: digest, value: "$(tasks.produce.results.image.digest)" }
        - { name: tag, value: "$(params.tag)" }
      taskSpec:
        params: [{ name: images, type: array }, { name: digest }, { name: tag }]
        steps:
          - name: s
            image: alpine
            command: [echo]
            args: ["$(params.images)", "$(params.digest)", "$(params.tag)"]
    - name: cached
      when: [{ input: "$(workspaces.cache.bound)", operator: in, values: ["true"] }]
      taskSpec:
        results: [{ name: out }]
        steps: [{ name: s, image: alpine, script: "true" }]
  finally:
    - name: report
      taskSpec:
        results: [{ name: summary }]
        steps: [{ name: s, image: alpine, script: "echo $(params.tag)" }]
`;

// docs/pipelineruns.md "Propagated Workspaces" in a Pipeline: the inline taskSpec declares none
const WORKSPACES = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: recipe }
spec:
  workspaces: [{ name: shared-data }, { name: cache, optional: true }]
  tasks:
    - name: fetch
      taskSpec:
        steps: [{ name: s, image: ubuntu, script: "echo hi >> $(workspaces.shared-data.path)/recipe.txt" }]
    - name: probe
      workspaces: [{ name: cache }]
      taskSpec:
        workspaces: [{ name: cache, optional: true }]
        steps: [{ name: s, image: ubuntu, script: "echo cache $(workspaces.cache.bound) at '$(workspaces.cache.path)'" }]
    - name: cached
      when: [{ input: "$(workspaces.cache.bound)", operator: in, values: ["true"] }]
      taskSpec: { steps: [${step}] }
`;

describe('Tekton params, results and variables in a run (FakeExecutor, real database)', () => {
  let db: TestDatabase;
  let workspaceId: string;
  let dataDir: string;
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    workspaceId = await seedWorkspace(db.database);
    dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-tekton-'));
  });
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((stop) => stop()));
  });
  afterAll(async () => {
    await db.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function setup(executor: FakeExecutor) {
    const ctx = runsOf(db.database, executor, { dataDir });
    ctx.engine.start();
    stops.push(() => ctx.engine.stop());
    return ctx;
  }

  async function runOf(executor: FakeExecutor, params: Record<string, string>) {
    const ctx = setup(executor);
    const pipelineId = await insertPipeline(db.database, workspaceId, RESULTS);
    const created = await ctx.service.create(workspaceId, {
      pipelineId,
      params,
      timeoutHours: 1,
      workspaces: [],
    });
    const run = await waitFor(async () => {
      const got = await ctx.service.get(workspaceId, created.id);
      return FINISHED.includes(got.status) && got;
    });
    return { created, run };
  }

  it('array and object results are values, finally results reach pipeline results, a skipped one is left out', async () => {
    const executor = new FakeExecutor()
      .script('produce', {
        results: { images: '["r.test/a:1", "r.test/b:2"]', image: '{"url":"r.test/a","digest":"sha256:9"}' },
      })
      .script('report', { results: { summary: 'all good' } });
    const { created, run } = await runOf(executor, { EXTRA: 'propagated' });
    expect(created.params).toMatchObject({ EXTRA: 'propagated' });
    expect(run.status).toBe('succeeded');
    expect(run.results).toEqual({
      images: ['r.test/a:1', 'r.test/b:2'],
      first: 'r.test/a:1',
      url: 'r.test/a',
      report: 'all good',
    });
    expect(run.taskRuns.find((t) => t.name === 'produce')!.results).toEqual({
      images: ['r.test/a:1', 'r.test/b:2'],
      image: { url: 'r.test/a', digest: 'sha256:9' },
    });
    expect(executor.callsOf('consume')[0]!.run.steps[0]!.args).toEqual([
      'r.test/a:1',
      'r.test/b:2',
      'sha256:9',
      `${run.name}-tag`,
    ]);
    // the pipeline's param reaches the inline taskSpec undeclared; the run's extra param is kept
    expect(executor.callsOf('report')[0]!.run.steps[0]!.script).toBe(`echo ${run.name}-tag`);
    expect(run.taskRuns.find((t) => t.name === 'cached')).toMatchObject({ status: 'skipped' });
  });

  it('an inline taskSpec uses the pipeline workspaces undeclared; an optional one the run leaves out is unbound', async () => {
    const executor = new FakeExecutor();
    const ctx = setup(executor);
    const pipelineId = await insertPipeline(db.database, workspaceId, WORKSPACES);
    const created = await ctx.service.create(workspaceId, {
      pipelineId,
      params: {},
      timeoutHours: 1,
      workspaces: [],
    });
    const run = await waitFor(async () => {
      const got = await ctx.service.get(workspaceId, created.id);
      return FINISHED.includes(got.status) && got;
    });
    expect(run.status, run.reason ?? '').toBe('succeeded');
    const fetch = executor.callsOf('fetch')[0]!.run;
    expect(fetch.steps[0]!.script).toMatch(/^echo hi >> \/\S+\/workspaces\/shared-data\/recipe\.txt$/);
    expect(Object.keys(fetch.workspaces)).toEqual(['shared-data']);
    expect(executor.callsOf('probe')[0]!.run.steps[0]!.script).toBe("echo cache false at ''");
    expect(run.taskRuns.find((t) => t.name === 'cached')).toMatchObject({ status: 'skipped' });
  });

  it('a result file that is not JSON of its type fails the task, naming the result', async () => {
    const executor = new FakeExecutor().script('produce', {
      results: { images: 'r.test/a:1', image: '{"url":"r.test/a","digest":"sha256:9"}' },
    });
    const { run } = await runOf(executor, { EXTRA: 'x' });
    expect(run.status).toBe('failed');
    expect(run.reason).toBe(
      'task "produce" failed: result "images" is declared an array but its file does not hold a JSON array of strings: "r.test/a:1"',
    );
  });
});
