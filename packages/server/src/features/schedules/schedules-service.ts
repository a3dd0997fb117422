import {
  scheduleCron,
  scheduleTimingIssues,
  type Schedule,
  type ScheduleCreateParsed,
  type ScheduleFrequency,
  type ScheduleListQuery,
  type ScheduleTiming,
  type ScheduleUpdate,
} from '@slipway/contracts';
import { InputError } from '../../platform/errors.js';
import { NamedRowsService } from '../../platform/named-rows.js';
import { cronProblem, nextOccurrence } from './schedule-timing.js';
import type { SchedulePatch, ScheduleRow, ScheduleWithPipeline } from './schedules-store.js';
import type { SchedulesStore } from './schedules-store-type.js';

export const SCHEDULE_NAME_TAKEN = 'A schedule with this name already exists';
type Params = Record<string, string | string[] | Record<string, string>>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function timingOf(
  row: Pick<ScheduleRow, 'frequency' | 'minute' | 'time' | 'dayOfWeek' | 'cron'>,
): ScheduleTiming {
  return {
    frequency: row.frequency as ScheduleFrequency,
    minute: row.minute,
    time: row.time,
    dayOfWeek: row.dayOfWeek,
    cron: row.cron,
  };
}

export function toSchedule(row: ScheduleWithPipeline): Schedule {
  return {
    id: row.id,
    name: row.name,
    pipelineId: row.pipelineId,
    pipelineName: row.pipelineName,
    frequency: row.frequency as ScheduleFrequency,
    minute: row.minute,
    time: row.time,
    dayOfWeek: row.dayOfWeek,
    cron: row.cron,
    expression: scheduleCron(timingOf(row)),
    timeZone: row.timeZone,
    params: row.params as Params,
    timeoutHours: row.timeoutHours,
    enabled: row.enabled,
    nextRunAt: iso(row.nextRunAt),
    lastRunAt: iso(row.lastRunAt),
    lastRunId: row.lastRunId,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Checks run params against the pipeline's declared params; answers the problems, path and rule. */
export type ParamsCheck = (
  workspaceId: string,
  pipelineId: string,
  params: Params,
) => Promise<Array<{ path: string; message: string }>>;

/** Schedules: CRUD; the next run time is worked out here, in the schedule's time zone. */
export class SchedulesService extends NamedRowsService<ScheduleWithPipeline, Schedule> {
  constructor(
    private readonly store: SchedulesStore,
    private readonly checkParams: ParamsCheck,
    private readonly now: () => Date = () => new Date(),
  ) {
    super(store, { notFound: 'Schedule not found', nameTaken: SCHEDULE_NAME_TAKEN }, toSchedule);
  }

  async list(workspaceId: string, query: ScheduleListQuery) {
    const { rows, total } = await this.store.list(workspaceId, query);
    return { rows: rows.map(toSchedule), total };
  }

  async create(
    workspaceId: string,
    input: ScheduleCreateParsed,
    createdBy: string | null,
  ): Promise<Schedule> {
    await this.checkPipelineAndParams(workspaceId, input.pipelineId, input.params);
    const timing = this.checkTiming(input);
    return this.insertNamed(workspaceId, input.name, (id) =>
      this.store.insert({
        id,
        workspaceId,
        pipelineId: input.pipelineId,
        name: input.name,
        ...timing,
        timeZone: input.timeZone,
        params: input.params,
        timeoutHours: input.timeoutHours,
        enabled: input.enabled,
        nextRunAt: input.enabled ? nextOccurrence(timing, input.timeZone, this.now()) : null,
        createdBy,
      }),
    );
  }

  /** Omitted fields keep their values; the next run is worked out again from now. */
  async update(workspaceId: string, id: string, input: ScheduleUpdate): Promise<Schedule> {
    const row = await this.rows.require(workspaceId, id);
    const pick = <K extends keyof ScheduleUpdate & keyof ScheduleRow>(k: K) =>
      (input[k] === undefined ? row[k] : input[k]) as ScheduleRow[K];
    const pipelineId = pick('pipelineId');
    const params = (input.params ?? row.params) as Params;
    if (input.pipelineId !== undefined || input.params !== undefined)
      await this.checkPipelineAndParams(workspaceId, pipelineId, params);
    const timing = this.checkTiming({
      frequency: pick('frequency') as ScheduleFrequency,
      minute: pick('minute'),
      time: pick('time'),
      dayOfWeek: pick('dayOfWeek'),
      cron: pick('cron'),
    });
    const name = pick('name');
    if (name !== row.name) await this.rows.checkName(workspaceId, name, id);
    const enabled = pick('enabled');
    const timeZone = pick('timeZone');
    const patch: SchedulePatch = {
      name,
      pipelineId,
      ...timing,
      timeZone,
      params,
      timeoutHours: pick('timeoutHours'),
      enabled,
      nextRunAt: enabled ? nextOccurrence(timing, timeZone, this.now()) : null,
    };
    await this.rows.write(() => this.store.update(id, patch));
    return this.get(workspaceId, id);
  }

  /** Keeps only the fields the frequency uses, and refuses what is missing or unparsable. */
  private checkTiming(t: ScheduleTiming) {
    const issues = scheduleTimingIssues(t).map((i) => ({ path: `body.${i.path}`, message: i.message }));
    if (t.frequency === 'cron' && t.cron) {
      const problem = cronProblem(t.cron);
      if (problem) issues.push({ path: 'body.cron', message: problem });
    }
    if (issues.length > 0) throw new InputError(`${issues[0]!.path}: ${issues[0]!.message}`, issues);
    return {
      frequency: t.frequency,
      minute: t.frequency === 'hourly' ? (t.minute ?? null) : null,
      time: t.frequency === 'daily' || t.frequency === 'weekly' ? (t.time ?? null) : null,
      dayOfWeek: t.frequency === 'weekly' ? (t.dayOfWeek ?? null) : null,
      cron: t.frequency === 'cron' ? (t.cron ?? '').trim().split(/\s+/).join(' ') : null,
    };
  }

  private async checkPipelineAndParams(workspaceId: string, pipelineId: string, params: Params) {
    if (!(await this.store.pipeline(workspaceId, pipelineId)))
      throw new InputError('pipelineId: no such pipeline in this workspace', [
        { path: 'body.pipelineId', message: 'no such pipeline in this workspace' },
      ]);
    const problems = await this.checkParams(workspaceId, pipelineId, params);
    if (problems.length > 0)
      throw new InputError(
        `body.${problems[0]!.path}: ${problems[0]!.message}`,
        problems.map((p) => ({ path: `body.${p.path}`, message: p.message })),
      );
  }
}
