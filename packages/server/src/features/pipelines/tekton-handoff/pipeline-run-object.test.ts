import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { loadDefinition, type RunDefinition } from '../../pipeline-runs/run-definition.js';
import { HandOffError, pipelineRunName, pipelineRunPlan, RUN_ID_LABEL } from './pipeline-run-object.js';
import { copyName, runReferences } from './run-references.js';
import { pipelineRunIssues } from './tekton-schemas.js';

const EXAMPLES = new URL('./tekton-examples/', import.meta.url);
const RUN = { id: '7d3f9c2a-1b2c-4d5e-8f90-123456789abc', name: 'build-and-test-12' };

function load(text: string, templates = new Map()): RunDefinition {
  const loaded = loadDefinition(text, templates);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return loaded.definition;
}

type Doc = {
  apiVersion?: string;
  kind?: string;
  spec: { params?: { name: string; value: unknown }[]; workspaces?: unknown[] };
};

/**
 * A Tekton example file: its pipeline as Slipway loads it (its Tekton documents, with its first
 * PipelineRun; the ConfigMaps and Secrets it creates are the cluster's), and that PipelineRun's
 * params and workspaces.
 */
function example(file: string) {
  const docs = parseAllDocuments(readFileSync(new URL(file, EXAMPLES), 'utf8'))
    .map((d) => d.toJS() as Doc)
    .filter(Boolean);
  const run = docs.find((d) => d.kind === 'PipelineRun')!;
  const tekton = docs.filter(
    (d) => d.apiVersion?.startsWith('tekton.dev/') && (d.kind !== 'PipelineRun' || d === run),
  );
  return {
    definition: load(tekton.map((d) => stringify(d)).join('---\n')),
    params: Object.fromEntries((run.spec.params ?? []).map((p) => [p.name, p.value])),
    workspaceBindings: run.spec.workspaces ?? [],
  };
}

describe('the PipelineRun a run is handed to Tekton as', () => {
  it.each(readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml')))(
    "passes the CRD schemas for Tekton's example %s, each Task inline",
    (file) => {
      const { definition, params, workspaceBindings } = example(file);
      const plan = pipelineRunPlan({
        run: { ...RUN, params, workspaceBindings },
        definition,
        namespace: 'ci',
        timeoutMs: 3_600_000,
      });
      expect(pipelineRunIssues(plan.object)).toEqual([]);
      const spec = plan.object.spec.pipelineSpec as {
        tasks: Record<string, unknown>[];
        finally?: Record<string, unknown>[];
      };
      for (const task of [...spec.tasks, ...(spec.finally ?? [])]) {
        expect(task.taskSpec).toBeTruthy();
        expect(task.taskRef).toBeUndefined();
      }
      expect(plan.tasks.size).toBe(spec.tasks.length + (spec.finally?.length ?? 0));
    },
  );

  it("carries the run's params, bindings, timeout and id; a workspace the run does not bind gets a claim template", () => {
    const { definition } = example('pipelinerun-with-final-tasks.yaml');
    const plan = pipelineRunPlan({
      run: { ...RUN, params: { a: 'b' }, workspaceBindings: [] },
      definition,
      namespace: 'ci',
      timeoutMs: 5_400_000,
    });
    expect(plan.object.metadata).toMatchObject({
      name: 'build-and-test-12-7d3f9c2a',
      namespace: 'ci',
      labels: { [RUN_ID_LABEL]: RUN.id },
    });
    expect(plan.object.spec).toMatchObject({
      params: [{ name: 'a', value: 'b' }],
      timeouts: { pipeline: '1h30m0s' },
      workspaces: definition.spec.workspaces!.map((w) => ({
        name: w.name,
        volumeClaimTemplate: {
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      })),
    });
  });

  it("sends a run document's timeouts.tasks/finally within the timeout sent, and its service accounts, passing the CRD schemas", () => {
    const { definition } = example('pipelinerun-with-final-tasks.yaml');
    const plan = (timeouts: Record<string, string>, timeoutMs: number) =>
      pipelineRunPlan({
        run: {
          ...RUN,
          params: {},
          workspaceBindings: [],
          trigger: {
            kind: 'user',
            document: {
              kind: 'PipelineRun',
              timeouts,
              serviceAccountName: 'build-bot',
              taskRunSpecs: [
                { pipelineTaskName: 'clone-app-repo', serviceAccountName: 'git-reader' },
                { pipelineTaskName: 'cleanup', timeout: '1m' },
              ],
            },
          },
        },
        definition,
        namespace: 'ci',
        timeoutMs,
      }).object;
    // docs/pipelineruns.md's example, as written
    const full = plan({ pipeline: '0h0m60s', tasks: '0h0m40s', finally: '0h0m20s' }, 60_000);
    expect(pipelineRunIssues(full)).toEqual([]);
    expect(full.spec.timeouts).toEqual({ pipeline: '1m0s', tasks: '40s', finally: '20s' });
    expect(full.spec.taskRunTemplate).toEqual({ serviceAccountName: 'build-bot' });
    // a taskRunSpec's timeout is in the pipeline task already; only the accounts go here
    expect(full.spec.taskRunSpecs).toEqual([
      { pipelineTaskName: 'clone-app-repo', serviceAccountName: 'git-reader' },
    ]);
    // an organisation's cap of 30 s: the sections are cut to fit it, as Tekton's webhook requires
    expect(plan({ pipeline: '0h0m60s', tasks: '0h0m40s', finally: '0h0m20s' }, 30_000).spec.timeouts).toEqual(
      {
        pipeline: '30s',
        tasks: '30s',
      },
    );
    // "0" (no deadline for the section) beside pipeline "0", sent as Slipway's longest run
    expect(plan({ pipeline: '0', tasks: '0', finally: '3m' }, 168 * 3_600_000).spec.timeouts).toEqual({
      pipeline: '168h0m0s',
      finally: '3m0s',
    });
  });

  it('refuses tasks Slipway carries out itself, and remote resolution', () => {
    const deploy = load(`apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: p }
spec:
  tasks:
    - name: ship
      taskSpec:
        steps: [{ name: apply, image: slipway.dev/in-server }]
`);
    expect(() =>
      pipelineRunPlan({
        run: { ...RUN, params: {}, workspaceBindings: [] },
        definition: deploy,
        namespace: 'ci',
        timeoutMs: 1000,
      }),
    ).toThrow(new HandOffError('tasks "ship" are carried out by Slipway itself (deploy, apply-yaml)'));
  });

  it('finds the secrets and config maps it reads, to copy them under per-run names', () => {
    const { definition } = example('workspaces-projected.yaml');
    const plan = pipelineRunPlan({
      run: { ...RUN, params: {}, workspaceBindings: [{ name: 'custom', secret: { secretName: 'token' } }] },
      definition,
      namespace: 'ci',
      timeoutMs: 1000,
    });
    const refs = plan.references.map((r) => [r.kind, r.name, r.path]);
    expect(refs).toContainEqual(['secret', 'token', 'spec.workspaces[0].secret.secretName']);
    const ref = plan.references.find((r) => r.name === 'token')!;
    ref.rename(copyName(plan.name, 'token'));
    expect(runReferences(plan.object).map((r) => r.name)).toContain('build-and-test-12-7d3f9c2a-token');
  });

  it('writes the name Tekton gives a step without one (unnamed-<i>), which the Task CRD requires', () => {
    const { definition } = example('optional-workspaces.yaml');
    const plan = pipelineRunPlan({
      run: { ...RUN, params: {}, workspaceBindings: [] },
      definition,
      namespace: 'ci',
      timeoutMs: 1000,
    });
    const tasks = (plan.object.spec.pipelineSpec as { tasks: { taskSpec: { steps: { name: string }[] } }[] })
      .tasks;
    expect(tasks.map((t) => t.taskSpec.steps.map((s) => s.name))).toEqual([['unnamed-0'], ['unnamed-0']]);
    expect([...plan.tasks.values()].map((t) => t.steps.map((s) => s.name))).toEqual([
      ['unnamed-0'],
      ['unnamed-0'],
    ]);
  });

  it('names the PipelineRun after the run, as a DNS label', () => {
    expect(pipelineRunName({ id: RUN.id, name: 'Shop_Build.v2 #3' })).toBe('shop-build-v2-3-7d3f9c2a');
  });
});
