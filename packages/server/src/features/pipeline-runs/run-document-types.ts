import type { RunWorkspaceBinding } from '@slipway/contracts';
import type { DefinitionIssue, ParamValue } from '../pipelines/definition/index.js';
import type { RunMetadata } from './run-document-rules.js';

/* What a Tekton PipelineRun or TaskRun document is read into (run-document.ts, run-document-task-run.ts). */

export type Json = Record<string, unknown>;
export type RunKind = 'PipelineRun' | 'TaskRun';

/** What the run keeps of its document (in its trigger) so that its export gives it back. */
export interface RunDocumentRecord {
  kind: RunKind;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** spec.timeouts / a TaskRun's spec.timeout, as written */
  timeouts?: Record<string, string>;
  serviceAccountName?: string;
  /** taskRunTemplate.podTemplate / a TaskRun's spec.podTemplate, as written */
  podTemplate?: Json;
  taskRunSpecs?: Json[];
}

export interface RunDocument {
  kind: RunKind;
  metadata: RunMetadata;
  /** The stored pipeline the run is of (a pipelineRef the stream does not answer). */
  pipelineRef?: string;
  /**
   * The pipeline recorded with the run: the stream's other documents (Tasks, StepActions), then a
   * Pipeline of `spec` named `name` (else as the caller says).
   */
  adhoc?: {
    name: string | undefined;
    documents: Json[];
    spec: Json;
    /**
     * An embedded pipelineSpec is kept as the PipelineRun it came in (its params and workspaces
     * beside it), since it sees the PipelineRun's params and workspaces without declaring them.
     */
    embedded?: { params?: unknown; workspaces?: unknown };
  };
  params: Record<string, ParamValue>;
  workspaces: RunWorkspaceBinding[];
  timeoutMs: number | undefined;
  /** pipeline tasks a taskRunSpec names, with where, for the check against a stored pipeline */
  taskRunSpecs: { pipelineTaskName: string; path: string }[];
  record: RunDocumentRecord;
  /** Where a path of the run document is in the text (line and column). */
  place(issue: DefinitionIssue): DefinitionIssue;
}

export type ReadRunDocument = { ok: true; document: RunDocument } | { ok: false; errors: DefinitionIssue[] };
