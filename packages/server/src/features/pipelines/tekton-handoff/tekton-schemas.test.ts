import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { pipelineRunIssues } from './tekton-schemas.js';

const EXAMPLES = new URL('./tekton-examples/', import.meta.url);
const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml'));
type Doc = { kind?: string; spec: Record<string, unknown> & { pipelineSpec?: Record<string, unknown> } };
const docs = (file: string) =>
  parseAllDocuments(readFileSync(new URL(file, EXAMPLES), 'utf8')).map((d) => d.toJS() as Doc);

describe("the Tekton CRDs' schemas", () => {
  it.each(files)("pass Tekton's own PipelineRuns (%s)", (file) => {
    const runs = docs(file).filter((d) => d?.kind === 'PipelineRun');
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) {
      // Tekton names a step without a name itself (`unnamed-<i>`) while the Task CRD's schema
      // requires the name: an inline taskSpec is checked as a Task's spec, so that is all that
      // may be said of Tekton's own examples (the hand-off writes the names: pipeline-run-object)
      const unnamed = /^spec\.pipelineSpec\.(tasks|finally)\[\d+\]\.taskSpec\.steps\[\d+\]\.name$/;
      const issues = pipelineRunIssues(run).filter(
        (i) => !(unnamed.test(i.path) && i.message === 'Required value'),
      );
      expect(issues).toEqual([]);
    }
  });

  it('refuse what the API server or Tekton would refuse, or drop, naming the field', () => {
    const run = docs('pipelinerun-with-pipelinespec-and-taskspec.yaml')[1]!;
    run.spec.params = [{ value: 'Good Morning!' }];
    run.spec.timeouts = { pipeline: 3600 };
    const tasks = run.spec.pipelineSpec!.tasks as Record<string, unknown>[];
    tasks[0]!.retries = 'three';
    (tasks[0]!.taskSpec as { steps: Record<string, unknown>[] }).steps[0]!.colour = 'red';
    expect(pipelineRunIssues(run)).toEqual(
      expect.arrayContaining([
        { path: 'spec.params[0].name', message: 'Required value' },
        { path: 'spec.timeouts.pipeline', message: 'must be string' },
        { path: 'spec.pipelineSpec.tasks[0].retries', message: 'must be integer' },
        {
          path: 'spec.pipelineSpec.tasks[0].taskSpec.steps[0].colour',
          message: 'unknown field: the CRD schema does not declare it (the API server would drop it)',
        },
      ]),
    );
  });

  it('check integer formats (int32) as the API server does', () => {
    const run = docs('pipelinerun-with-pipelinespec-and-taskspec.yaml')[0]!;
    const task = (run.spec.pipelineSpec!.tasks as Record<string, unknown>[])[0]!;
    (task.taskSpec as Record<string, unknown>).sidecars = [
      { name: 'db', image: 'postgres', ports: [{ containerPort: 2 ** 40 }] },
    ];
    expect(pipelineRunIssues(run)).toContainEqual({
      path: 'spec.pipelineSpec.tasks[0].taskSpec.sidecars[0].ports[0].containerPort',
      message: 'must match format "int32"',
    });
  });
});
