import {
  FINISHED_RUN_STATUSES,
  RUN_STATUS_FILTERS,
  type CreatePipelineRunRequest,
  type PipelineRunDetail,
  type PipelineRunListQuery,
  type PipelineRunLogsQuery,
  type PipelineRunStatus,
  type PipelineRunView,
} from '@slipway/contracts';
import { ConflictError, InputError, NotFoundError } from '../../platform/errors.js';
import { resolvePipelineParams, type ParamValue } from '../pipelines/definition/index.js';
import { loadDefinition, templateCatalogue } from './run-definition.js';
import type { NewRun, RunRow, RunStore } from './run-store.js';
import type { TaskStore } from './task-store.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const HOUR_MS = 3_600_000;

/** Runs: start, re-run, abort, roll back, read. Knows nothing of HTTP; the engine does the running. */
export class PipelineRunsService {
  constructor(
    private readonly runs: RunStore,
    private readonly tasks: TaskStore,
    private readonly notify: () => void = () => undefined,
  ) {}

  async create(workspaceId: string, request: CreatePipelineRunRequest, trigger = { kind: 'user' }) {
    const pipeline = await this.runs.pipeline(workspaceId, request.pipelineId);
    if (!pipeline) throw new NotFoundError('Pipeline not found');
    const params = await this.checkParams(workspaceId, pipeline.id, pipeline.currentVersion, request.params);
    return this.start({
      workspaceId,
      pipelineId: pipeline.id,
      pipelineName: pipeline.name,
      pipelineVersion: pipeline.currentVersion,
      params,
      workspaceBindings: request.workspaces,
      timeoutMs: Math.round(request.timeoutHours * HOUR_MS),
      trigger,
    });
  }

  async rerun(workspaceId: string, id: string): Promise<PipelineRunView> {
    const run = await this.find(workspaceId, id);
    const pipeline = await this.runs.pipeline(workspaceId, run.pipelineId);
    if (!pipeline) throw new NotFoundError('Pipeline not found');
    return this.start({
      workspaceId,
      pipelineId: run.pipelineId,
      pipelineName: pipeline.name,
      pipelineVersion: run.pipelineVersion,
      params: run.params as Record<string, unknown>,
      workspaceBindings: run.workspaceBindings as unknown[],
      timeoutMs: run.timeoutMs,
      trigger: { kind: 'rerun', id: run.id },
      rerunOf: run.id,
    });
  }

  async rollback(workspaceId: string, id: string): Promise<PipelineRunView> {
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
      trigger: { kind: 'rollback', id: run.id },
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
    const run = await this.find(workspaceId, id);
    let taskRuns = await this.tasks.taskRuns(run.id);
    if (query.task) {
      taskRuns = taskRuns.filter((t) => t.name === query.task || t.pipelineTask === query.task);
      if (taskRuns.length === 0) throw new NotFoundError(`The run has no task "${query.task}"`);
    }
    const chunks = await this.tasks.logLines(taskRuns.map((t) => t.id));
    const out: string[] = [];
    for (const taskRun of taskRuns)
      for (const chunk of chunks.filter((c) => c.taskRunId === taskRun.id))
        for (const line of chunk.lines) {
          if (query.step && line.step !== query.step) continue;
          out.push(query.task ? line.text : `[${taskRun.name}/${line.step}] ${line.text}`);
        }
    const page = out.slice(query.offset);
    return { text: page.length > 0 ? `${page.join('\n')}\n` : '', next: query.offset + page.length };
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
    const text = await this.runs.definition(pipelineId, version);
    const templates = templateCatalogue(await this.tasks.taskTemplates(workspaceId));
    const loaded = loadDefinition(text ?? '', templates);
    if (!loaded.ok)
      throw new InputError(
        'The pipeline definition is not valid',
        loaded.errors.map((e) => ({ path: e.path, message: e.message })),
      );
    return loaded.definition.spec;
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
      queuedAt: run.queuedAt.toISOString(),
      startedAt: iso(run.startedAt),
      finishedAt: iso(run.finishedAt),
      queuePosition: await this.runs.queuePosition(run),
    };
  }
}
