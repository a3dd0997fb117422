import { describe, expect, it } from 'vitest';
import { podFieldsOf } from '../pipelines/definition/step-env-values.js';
import { readRunDocument, type RunDocumentRecord } from './run-document.js';
import {
  documentRecordOf,
  namedServiceAccounts,
  serverServiceAccountIssues,
  serviceAccountFor,
} from './run-service-accounts.js';

/* tektoncd/pipeline docs/pipelineruns.md, "Specifying a custom ServiceAccount" / "Mapping ServiceAccount credentials to Tasks". */

const record: Partial<RunDocumentRecord> = {
  kind: 'PipelineRun',
  serviceAccountName: 'sa-1',
  taskRunSpecs: [
    { pipelineTaskName: 'build-task', serviceAccountName: 'sa-for-build' },
    { pipelineTaskName: 'test-task', timeout: '1m' },
    { pipelineTaskName: 'lint', serviceAccountName: 'default' },
  ],
};

describe('the service account a task runs as', () => {
  it("is the task's taskRunSpec's, else the taskRunTemplate's, else the namespace's default", () => {
    expect(serviceAccountFor(record, 'build-task')).toBe('sa-for-build');
    expect(serviceAccountFor(record, 'test-task')).toBe('sa-1');
    expect(serviceAccountFor(record, 'other')).toBe('sa-1');
    expect(serviceAccountFor(record, 'lint')).toBeUndefined();
    expect(serviceAccountFor({ kind: 'TaskRun', serviceAccountName: 'robot' }, 'anything')).toBe('robot');
    expect(serviceAccountFor(documentRecordOf({ kind: 'user' }), 'build-task')).toBeUndefined();
    expect(serviceAccountFor(documentRecordOf(null), 'build-task')).toBeUndefined();
  });

  it('names every account other than "default" with where the document gives it, and why the server refuses it', () => {
    expect(namedServiceAccounts(record)).toEqual([
      { path: 'spec.taskRunTemplate.serviceAccountName', name: 'sa-1' },
      { path: 'spec.taskRunSpecs[0].serviceAccountName', name: 'sa-for-build' },
    ]);
    expect(namedServiceAccounts({ kind: 'TaskRun', serviceAccountName: 'robot' })).toEqual([
      { path: 'spec.serviceAccountName', name: 'robot' },
    ]);
    expect(serverServiceAccountIssues({ kind: 'TaskRun', serviceAccountName: 'default' })).toEqual([]);
    expect(serverServiceAccountIssues(record)[0]).toMatchObject({
      path: 'spec.taskRunTemplate.serviceAccountName',
      rule: 'service-account',
      message: expect.stringContaining('has no Kubernetes identity to give it'),
    });
  });

  it("is what a step's env fieldRef spec.serviceAccountName reads (the downward API)", () => {
    const withAccount = podFieldsOf({ name: 'build-task' }, undefined, {
      taskRun: { name: 'run-build-task', serviceAccountName: 'sa-for-build' },
    });
    expect(withAccount.serviceAccountName).toBe('sa-for-build');
    expect(
      podFieldsOf({ name: 'build-task' }, undefined, { taskRun: { name: 'r' } }).serviceAccountName,
    ).toBe('default');
  });

  it("reads the docs' v1 and v1beta1 tabs alike (v1beta1's taskServiceAccountName is v1's serviceAccountName)", () => {
    const read = (text: string) => {
      const result = readRunDocument(text, new Map());
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      return result.document.record;
    };
    const v1 = read(`apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { name: r }
spec:
  pipelineRef: { name: p }
  taskRunTemplate:
    serviceAccountName: sa-1
  taskRunSpecs:
    - pipelineTaskName: build-task
      serviceAccountName: sa-for-build
`);
    const v1beta1 = read(`apiVersion: tekton.dev/v1beta1
kind: PipelineRun
metadata: { name: r }
spec:
  pipelineRef: { name: p }
  serviceAccountName: sa-1
  taskRunSpecs:
    - pipelineTaskName: build-task
      taskServiceAccountName: sa-for-build
`);
    for (const record of [v1, v1beta1]) {
      expect(serviceAccountFor(record, 'build-task')).toBe('sa-for-build');
      expect(serviceAccountFor(record, 'test-task')).toBe('sa-1');
    }
    expect(v1beta1.taskRunSpecs).toEqual(v1.taskRunSpecs);
  });
});
