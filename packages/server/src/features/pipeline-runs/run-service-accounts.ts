import type { DefinitionIssue } from '../pipelines/definition/index.js';
import { serverServiceAccountRefusal } from '../pipelines/executor/service-account.js';
import type { RunDocumentRecord } from './run-document.js';
import { DEFAULT_SERVICE_ACCOUNT } from './run-document-rules.js';

/*
 * The service account a run document gives its task runs (Tekton: `taskRunSpecs[].serviceAccountName`,
 * else `taskRunTemplate.serviceAccountName`, else the namespace's "default"; a TaskRun's
 * `spec.serviceAccountName`). It means something only where the environment's cluster runs the
 * tasks: Slipway's pods there (the pod's `spec.serviceAccountName`) or Tekton (the hand-off sends
 * it on). Slipway's own executor (local or sandbox) has no Kubernetes identity to give a task, so a
 * run there refuses any account but "default": when it is created if its target is known then,
 * else when the task starts.
 */

/** What a run keeps of its document (trigger.document), or nothing for a run created otherwise. */
export function documentRecordOf(trigger: unknown): Partial<RunDocumentRecord> {
  const record = (trigger as { document?: unknown } | null | undefined)?.document;
  return record && typeof record === 'object' ? (record as Partial<RunDocumentRecord>) : {};
}

/** The service account a pipeline task's runs run as, or undefined for the namespace's default. */
export function serviceAccountFor(
  record: Partial<RunDocumentRecord>,
  pipelineTask: string,
): string | undefined {
  const spec = (record.taskRunSpecs ?? []).find((s) => s.pipelineTaskName === pipelineTask);
  const name =
    typeof spec?.serviceAccountName === 'string' ? spec.serviceAccountName : record.serviceAccountName;
  return name === undefined || name === DEFAULT_SERVICE_ACCOUNT ? undefined : name;
}

/** Every account other than "default" the document names, with where (a document path). */
export function namedServiceAccounts(record: Partial<RunDocumentRecord>): { path: string; name: string }[] {
  const out: { path: string; name: string }[] = [];
  if (record.serviceAccountName !== undefined && record.serviceAccountName !== DEFAULT_SERVICE_ACCOUNT)
    out.push({
      path: record.kind === 'TaskRun' ? 'spec.serviceAccountName' : 'spec.taskRunTemplate.serviceAccountName',
      name: record.serviceAccountName,
    });
  (record.taskRunSpecs ?? []).forEach((spec, i) => {
    const name = spec.serviceAccountName;
    if (typeof name === 'string' && name !== DEFAULT_SERVICE_ACCOUNT)
      out.push({ path: `spec.taskRunSpecs[${i}].serviceAccountName`, name });
  });
  return out;
}

/** The refusals of a run created for Slipway's own executor. */
export function serverServiceAccountIssues(record: Partial<RunDocumentRecord>): DefinitionIssue[] {
  return namedServiceAccounts(record).map(({ path, name }) => ({
    path,
    rule: 'service-account',
    message: serverServiceAccountRefusal(name),
  }));
}
