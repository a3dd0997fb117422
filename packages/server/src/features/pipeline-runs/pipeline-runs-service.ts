import {
  FINISHED_RUN_STATUSES,
  RUN_STATUS_FILTERS,
  type CreatePipelineRunRequest,
  type RunTrigger,
  type PipelineRunDetail,
  type PipelineRunListQuery,
  type PipelineRunLogSearchQuery,
  type PipelineRunLogsQuery,
  type PipelineRunStatus,
  type PipelineRunView,
} from '@slipway/contracts';
import { Readable } from 'node:stream';
import { ConflictError, InputError, NotFoundError } from '../../platform/errors.js';
import { resolvePipelineParams, type ParamValue } from '../pipelines/definition/index.js';
import { createFromDocument, exportRun, type DocumentRunOptions } from './run-document-create.js';
import type { RunDocumentStore } from './run-document-store.js';
import { logText, searchLog, selectTaskRuns } from './logs/log-reader.js';
import type { LogStore } from './logs/log-store.js';
import { storedDefinitions, type DefinitionSource } from './run-sources.js';
import type { NewRun, RunRow, RunStore } from './run-store.js';
import type { TaskStore } from './task-store.js';
import { localBindingIssues } from './workspace-bindings.js';

/**
 * What a re-run keeps of the run's trigger: the code it was for (commit, branch, author), and the
 * Tekton document it came from (its kind, labels and what else the export gives back).
 */
function codeOf(trigger: unknown): Pick<RunTrigger, 'commit' | 'branch' | 'author' | 'document'> {
  const t = (trigger ?? {}) as RunTrigger;
  return {
    ...(t.commit ? { commit: t.commit } : {}),
    ...(t.branch ? { branch: t.branch } : {}),
    ...(t.author ? { author: t.author } : {}),
    ...(t.document ? { document: t.document } : {}),
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const HOUR_MS = 3_600_000;

/** Prepares a pipeline for a run; answers a note for the run's message, or nothing. */
export type RunPreparer = (workspaceId: string, pipelineId: string) => Promise<string | undefined>;

/** Runs: start, re-run, abort, roll back, read. Knows nothing of HTTP; the engine does the running. */
export class PipelineRunsService {
  constructor(
    private readonly runs: RunStore,
    private readonly tasks: TaskStore,
    private readonly logStore: LogStore,
    private readonly notify: () => void = () => undefined,
    private readonly definitions: DefinitionSource = storedDefinitions(runs, tasks),
    /** runs from Tekton PipelineRun and TaskRun documents; without it they are refused */
    private readonly documents?: RunDocumentStore,
  ) {}

  private prepare: RunPreparer | undefined;

  /** Called before a run is created (external pipelines sync there); its note becomes the run's message. */
  beforeCreate(prepare: RunPreparer): void {
    this.prepare = prepare;
  }

  async create(
    workspaceId: string,
    request: CreatePipelineRunRequest,
    trigger: RunTrigger = { kind: 'user' },
  ) {
    const note = await this.prepare?.(workspaceId, request.pipelineId);
    const pipeline = await this.runs.pipeline(workspaceId, request.pipelineId);
    if (!pipeline) throw new NotFoundError('Pipeline not found');
    const params = await this.checkParams(workspaceId, pipeline.id, pipeline.currentVersion, request.params);
    if (request.environmentId && !(await this.runs.environmentExists(workspaceId, request.environmentId)))
      throw new InputError('environmentId: no such environment in this workspace', [
        { path: 'environmentId', message: 'no such environment in this workspace' },
      ]);
    await this.checkBindings(request.workspaces, request.environmentId ?? null);
    return this.start({
      workspaceId,
      pipelineId: pipeline.id,
      pipelineName: pipeline.name,
      pipelineVersion: pipeline.currentVersion,
      params,
      workspaceBindings: request.workspaces,
      timeoutMs: Math.round(request.timeoutHours * HOUR_MS),
      trigger,
      environmentId: request.environmentId ?? null,
      message: note ?? null,
    });
  }

  /**
   * Starts a run from a Tekton PipelineRun or TaskRun document (YAML or JSON), as `kubectl create
   * -f` would create it; 400 naming the document's path (line and column) and rule, 409 for a
   * name already taken.
   */
  async createFromDocument(
    workspaceId: string,
    body: string | object,
    options: DocumentRunOptions,
    trigger: RunTrigger = { kind: 'user' },
  ): Promise<PipelineRunView> {
    if (!this.documents) throw new InputError('This server does not take Tekton run documents');
    return createFromDocument(
      {
        runs: this.runs,
        tasks: this.tasks,
        documents: this.documents,
        prepare: this.prepare,
        spec: (pipelineId, version) => this.spec(workspaceId, pipelineId, version),
        start: (run) => this.start(run),
      },
      workspaceId,
      body,
      options,
      trigger,
    );
  }

  /** The run as a Tekton v1 PipelineRun with its status. */
  async export(workspaceId: string, id: string): Promise<Record<string, unknown>> {
    const run = await this.find(workspaceId, id);
    return exportRun({ runs: this.runs, tasks: this.tasks, definitions: this.definitions }, run);
  }

  /** Runs it again with the same params; the trigger keeps the commit, branch and author it was for. */
  async rerun(workspaceId: string, id: string, by: string | null = null): Promise<PipelineRunView> {
    const run = await this.find(workspaceId, id);
    const pipeline = await this.runs.pipeline(workspaceId, run.pipelineId);
    if (!pipeline) throw new NotFoundError('Pipeline not found');
    await this.checkBindings(run.workspaceBindings as object[], run.environmentId);
    return this.start({
      workspaceId,
      pipelineId: run.pipelineId,
      pipelineName: pipeline.name,
      pipelineVersion: run.pipelineVersion,
      params: run.params as Record<string, unknown>,
      workspaceBindings: run.workspaceBindings as unknown[],
      timeoutMs: run.timeoutMs,
      trigger: { ...codeOf(run.trigger), kind: 'rerun', id: run.id, by },
      rerunOf: run.id,
      environmentId: run.environmentId,
    });
  }

  async rollback(workspaceId: string, id: string, by: string | null = null): Promise<PipelineRunView> {
    const run = await this.find(workspaceId, id);
    const pipeline = await this.runs.pipeline(workspaceId, run.pipelineId);
    if (!pipeline?.rollbackPipelineId) throw new ConflictError('This pipeline has no rollback pipeline');
    const target = await this.runs.pipeline(workspaceId, pipeline.rollbackPipelineId);
    if (!target) throw new ConflictError('The rollback pipeline no longer exists');
    const previous = await this.runs.previousSuccess(run);
    if (!previous) throw new ConflictError('There is no earlier successful run to roll back to');
    const spec = await this.spec(workspaceId, target.id, target.currentVersion);
    const declared = new Set((spec.params ?? []).map((p) => p.name));
    const given = Object.entries(previous.params as Record<string, ParamValue>).filter(([k]) =>
      declared.has(k),
    );
    const params = await this.checkParams(
      workspaceId,
      target.id,
      target.currentVersion,
      Object.fromEntries(given),
    );
    return this.start({
      workspaceId,
      pipelineId: target.id,
      pipelineName: target.name,
      pipelineVersion: target.currentVersion,
      params,
      workspaceBindings: [],
      timeoutMs: run.timeoutMs,
      trigger: { kind: 'rollback', id: run.id, by },
      rollbackOf: run.id,
    });
  }

  async abort(workspaceId: string, id: string): Promise<PipelineRunView> {
    const run = await this.find(workspaceId, id);
    if (FINISHED_RUN_STATUSES.includes(run.status as PipelineRunStatus))
      throw new ConflictError('The run has already finished');
    await this.runs.requestCancel(run.id);
    this.notify();
    return this.view(await this.find(workspaceId, id));
  }

  async list(workspaceId: string, query: PipelineRunListQuery) {
    const status = query.status ? RUN_STATUS_FILTERS[query.status] : undefined;
    const { rows, total } = await this.runs.list(workspaceId, status, query);
    return { rows: await Promise.all(rows.map((r) => this.view(r))), total };
  }

  async get(workspaceId: string, id: string): Promise<PipelineRunDetail> {
    const run = await this.find(workspaceId, id);
    const taskRuns = await this.tasks.taskRuns(run.id);
    const steps = await this.tasks.stepRuns(taskRuns.map((t) => t.id));
    return {
      ...(await this.view(run)),
      taskRuns: taskRuns.map((t) => ({
        id: t.id,
        name: t.name,
        pipelineTask: t.pipelineTask,
        isFinally: t.isFinally,
        status: t.status,
        reason: t.reason,
        attempt: t.attempt,
        results: (t.results as Record<string, string> | null) ?? null,
        startedAt: iso(t.startedAt),
        finishedAt: iso(t.finishedAt),
        steps: steps
          .filter((s) => s.taskRunId === t.id)
          .map((s) => ({ ...s, startedAt: iso(s.startedAt), finishedAt: iso(s.finishedAt) })),
      })),
    };
  }

  /** Log lines as plain text; without `task`, every task's lines prefixed with `[task/step]`. */
  async logs(
    workspaceId: string,
    id: string,
    query: PipelineRunLogsQuery,
  ): Promise<{ text: string; next: number }> {
    const out: string[] = [];
    let index = 0;
    for await (const l of logText(this.logStore, await this.selected(workspaceId, id, query.task), query)) {
      if (index++ >= query.offset) out.push(l.line);
    }
    return { text: out.length > 0 ? `${out.join('\n')}\n` : '', next: query.offset + out.length };
  }

  /** The selection as a stream of text for a download, and a file name for it. */
  async download(workspaceId: string, id: string, query: PipelineRunLogsQuery) {
    const run = await this.find(workspaceId, id);
    const taskRuns = await this.selected(workspaceId, id, query.task);
    const name = [run.name, query.task, query.step]
      .filter(Boolean)
      .join('-')
      .replace(/[^\w.-]+/g, '_');
    const logs = this.logStore;
    async function* text() {
      let batch: string[] = [];
      let index = 0;
      for await (const l of logText(logs, taskRuns, query)) {
        if (index++ < query.offset) continue;
        batch.push(l.line);
        if (batch.length >= 1000) {
          yield `${batch.join('\n')}\n`;
          batch = [];
        }
      }
      if (batch.length > 0) yield `${batch.join('\n')}\n`;
    }
    return { fileName: `${name}.log`, body: Readable.from(text()) };
  }

  async searchLogs(workspaceId: string, id: string, query: PipelineRunLogSearchQuery) {
    const taskRuns = await this.selected(workspaceId, id, query.task);
    return searchLog(this.logStore, taskRuns, query, query.q, { start: query._start, end: query._end });
  }

  /** The run (404 outside the workspace) and the task runs of the selection (404 for an unknown task). */
  private async selected(workspaceId: string, id: string, task: string | undefined) {
    const run = await this.find(workspaceId, id);
    const taskRuns = selectTaskRuns(await this.tasks.taskRuns(run.id), task);
    if (task && taskRuns.length === 0) throw new NotFoundError(`The run has no task "${task}"`);
    return taskRuns;
  }

  /** 404 unless the run is in the workspace. */
  async exists(workspaceId: string, id: string): Promise<void> {
    await this.find(workspaceId, id);
  }

  /**
   * A run on the local executor (no environment, or one without a cluster) cannot have a
   * workspace on a volume: refuse it rather than give the steps an empty directory.
   */
  private async checkBindings(bindings: readonly object[], environmentId: string | null) {
    const issues = localBindingIssues(bindings);
    if (issues.length === 0) return;
    if (environmentId && (await this.runs.environmentOnCluster(environmentId))) return;
    throw new InputError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
  }

  private async start(run: NewRun): Promise<PipelineRunView> {
    const row = await this.runs.create(run);
    this.notify();
    return this.view(row);
  }

  private async find(workspaceId: string, id: string): Promise<RunRow> {
    const run = await this.runs.get(workspaceId, id);
    if (!run) throw new NotFoundError('Pipeline run not found');
    return run;
  }

  private async spec(workspaceId: string, pipelineId: string, version: number) {
    try {
      return (await this.definitions.load(workspaceId, pipelineId, version)).spec;
    } catch (error) {
      if (error instanceof NotFoundError) throw error;
      throw new InputError(`The pipeline definition is not valid: ${(error as Error).message}`);
    }
  }

  private async checkParams(
    workspaceId: string,
    pipelineId: string,
    version: number,
    supplied: Record<string, ParamValue>,
  ) {
    const resolved = resolvePipelineParams(await this.spec(workspaceId, pipelineId, version), supplied);
    if (!resolved.ok)
      throw new InputError(
        `Invalid params: ${resolved.errors.map((e) => e.path).join(', ')}`,
        resolved.errors.map((e) => ({ path: e.path, message: e.message })),
      );
    return resolved.params;
  }

  private async view(run: RunRow): Promise<PipelineRunView> {
    return {
      id: run.id,
      pipelineId: run.pipelineId,
      pipelineVersion: run.pipelineVersion,
      number: run.number,
      name: run.name,
      status: run.status as PipelineRunStatus,
      reason: run.reason,
      message: run.message,
      params: run.params as PipelineRunView['params'],
      results: (run.results as PipelineRunView['results']) ?? null,
      timeoutMs: run.timeoutMs,
      trigger: run.trigger as PipelineRunView['trigger'],
      rerunOf: run.rerunOf,
      rollbackOf: run.rollbackOf,
      environmentId: run.environmentId,
      queuedAt: run.queuedAt.toISOString(),
      startedAt: iso(run.startedAt),
      finishedAt: iso(run.finishedAt),
      queuePosition: await this.runs.queuePosition(run),
    };
  }
}
