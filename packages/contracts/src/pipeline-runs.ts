import { z } from 'zod';
import { PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS } from './constants.js';
import { listQuerySchema, PAGING } from './paging.js';

/** The spec's path constants for runs and their logs, under `/api`. */
export const PIPELINE_RUN_PATHS = { pipelineruns: 'pipelineruns', logging: 'logs' } as const;

/** Stored run statuses. */
export const PIPELINE_RUN_STATUSES = [
  'pending',
  'in_progress',
  'succeeded',
  'failed',
  'timed_out',
  'cancelled',
] as const;
export type PipelineRunStatus = (typeof PIPELINE_RUN_STATUSES)[number];
export const FINISHED_RUN_STATUSES: readonly PipelineRunStatus[] = [
  'succeeded',
  'failed',
  'timed_out',
  'cancelled',
];

/** The run list's status filter as the studio names it (spec §4) → the stored status. */
export const RUN_STATUS_FILTERS: Record<string, PipelineRunStatus> = {
  failed: 'failed',
  completed: 'succeeded',
  succeeded: 'succeeded',
  pending: 'pending',
  'in progress': 'in_progress',
  in_progress: 'in_progress',
  'timed out': 'timed_out',
  timed_out: 'timed_out',
  cancelled: 'cancelled',
};

export const runParamValueSchema = z.union([
  z.string(),
  z.array(z.string()),
  z.record(z.string(), z.string()),
]);

export const runWorkspaceBindingSchema = z.object({
  name: z.string().min(1).max(63),
  emptyDir: z.object({}).passthrough().optional(),
  volumeClaimTemplate: z.unknown().optional(),
  subPath: z.string().max(255).optional(),
});

export const createPipelineRunSchema = z.object({
  pipelineId: z.string().min(1).max(64),
  params: z.record(z.string(), runParamValueSchema).default({}),
  timeoutHours: z.number().positive().max(168).default(PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS),
  workspaces: z.array(runWorkspaceBindingSchema).max(32).default([]),
});
export type CreatePipelineRunRequest = z.infer<typeof createPipelineRunSchema>;

export const pipelineRunListQuerySchema = listQuerySchema
  .safeExtend({
    status: z
      .string()
      .transform((v) => v.toLowerCase())
      .pipe(z.enum(Object.keys(RUN_STATUS_FILTERS) as [string, ...string[]]))
      .optional(),
    pipelineId: z.string().max(64).optional(),
    _sort: z.enum(['queuedAt', 'number', 'status', 'id']).default('queuedAt'),
    _order: z
      .string()
      .transform((v) => v.toUpperCase())
      .pipe(z.enum(['ASC', 'DESC']))
      .default('DESC'),
  })
  .refine((q) => q._end >= q._start, { message: '_end must not be less than _start', path: ['_end'] })
  .refine((q) => q._end - q._start <= PAGING.maxPageSize, {
    message: `at most ${PAGING.maxPageSize} rows per page`,
    path: ['_end'],
  });
export type PipelineRunListQuery = z.infer<typeof pipelineRunListQuerySchema>;

export const pipelineRunSchema = z.object({
  id: z.string(),
  pipelineId: z.string(),
  pipelineVersion: z.number().int(),
  number: z.number().int(),
  name: z.string(),
  status: z.enum(PIPELINE_RUN_STATUSES),
  reason: z.string().nullable(),
  message: z.string().nullable(),
  params: z.record(z.string(), runParamValueSchema),
  results: z.record(z.string(), runParamValueSchema).nullable(),
  timeoutMs: z.number().int(),
  trigger: z.object({ kind: z.string(), id: z.string().nullable().optional() }),
  rerunOf: z.string().nullable(),
  rollbackOf: z.string().nullable(),
  queuedAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** 1-based place among the workspace's waiting runs; null once it has started. */
  queuePosition: z.number().int().nullable(),
});
export type PipelineRunView = z.infer<typeof pipelineRunSchema>;

export const stepRunSchema = z.object({
  idx: z.number().int(),
  name: z.string(),
  image: z.string(),
  status: z.string(),
  exitCode: z.number().int().nullable(),
  reason: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});

export const taskRunSchema = z.object({
  id: z.string(),
  name: z.string(),
  pipelineTask: z.string(),
  isFinally: z.boolean(),
  status: z.string(),
  reason: z.string().nullable(),
  attempt: z.number().int(),
  results: z.record(z.string(), runParamValueSchema).nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  steps: z.array(stepRunSchema),
});
export type TaskRunView = z.infer<typeof taskRunSchema>;

export const pipelineRunDetailSchema = pipelineRunSchema.extend({ taskRuns: z.array(taskRunSchema) });
export type PipelineRunDetail = z.infer<typeof pipelineRunDetailSchema>;

export const pipelineRunListSchema = z.array(pipelineRunSchema);

export const pipelineRunLogsQuerySchema = z.object({
  task: z.string().max(128).optional(),
  step: z.string().max(128).optional(),
  offset: z.coerce.number().int().min(0).default(0),
});
export type PipelineRunLogsQuery = z.infer<typeof pipelineRunLogsQuerySchema>;
