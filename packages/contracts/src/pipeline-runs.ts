import { z } from 'zod';
import { PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS } from './constants.js';
import { configMapKeySchema } from './config-maps.js';
import { listQuerySchema, pageRules, sortOrderSchema } from './paging.js';
import { idAndName } from './shared.js';

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

/**
 * A config map item's file: a relative path that stays inside the workspace (no leading '/', no
 * '..' segment), as Kubernetes' KeyToPath.
 */
export const WORKSPACE_ITEM_PATH_MESSAGE =
  "path must be a relative path inside the workspace: no leading '/' and no '..'";
export const workspaceItemPathSchema = z
  .string()
  .min(1, 'path must not be empty')
  .max(4096, 'path must have at most 4096 characters')
  .refine(
    (p) => !p.startsWith('/') && !p.split('/').some((part) => part === '..' || part === '.' || part === ''),
    WORKSPACE_ITEM_PATH_MESSAGE,
  );

/** The kinds of Tekton workspace binding; a binding names at most one. */
export const WORKSPACE_BINDING_KINDS = [
  'emptyDir',
  'secret',
  'configMap',
  'persistentVolumeClaim',
  'volumeClaimTemplate',
  'csi',
  'projected',
] as const;
export type WorkspaceBindingKind = (typeof WORKSPACE_BINDING_KINDS)[number];

export const runWorkspaceBindingSchema = z
  .object({
    name: z.string().min(1).max(63),
    emptyDir: z.object({}).passthrough().optional(),
    subPath: z.string().max(255).optional(),
    /** Tekton's secret workspace: each key of the workspace's secret is a file in the workspace. */
    secret: z.object({ secretName: z.string().min(1).max(253) }).optional(),
    /**
     * Tekton's configMap workspace: each key of the workspace's config map is a file (mode 0644),
     * or only the listed items, each at its path. Read-only to steps.
     */
    configMap: z
      .object({
        name: z.string().min(1).max(253),
        items: z
          .array(z.object({ key: configMapKeySchema, path: workspaceItemPathSchema }))
          .max(1000)
          .optional(),
      })
      .optional(),
    /** Kept so a run that cannot use them (the local executor) is refused with their name. */
    persistentVolumeClaim: z.unknown().optional(),
    volumeClaimTemplate: z.unknown().optional(),
    csi: z.unknown().optional(),
    projected: z.unknown().optional(),
  })
  .refine((b) => WORKSPACE_BINDING_KINDS.filter((k) => b[k] !== undefined).length <= 1, {
    message: `a workspace binding names at most one of ${WORKSPACE_BINDING_KINDS.join(', ')}`,
  });
export type RunWorkspaceBinding = z.infer<typeof runWorkspaceBindingSchema>;

export const createPipelineRunSchema = z.object({
  pipelineId: z.string().min(1).max(64),
  params: z.record(z.string(), runParamValueSchema).default({}),
  timeoutHours: z.number().positive().max(168).default(PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS),
  workspaces: z.array(runWorkspaceBindingSchema).max(32).default([]),
  /** The environment the run targets (its cluster runs the tasks); an environment of the workspace. */
  environmentId: z.string().min(1).max(64).optional(),
});
export type CreatePipelineRunRequest = z.infer<typeof createPipelineRunSchema>;

/** Content types a Tekton run document may be posted as (besides JSON). */
export const RUN_DOCUMENT_YAML_TYPES = ['application/yaml', 'text/yaml', 'application/x-yaml'] as const;

/** A JSON body that is a Tekton document (it has `apiVersion` or `kind`) rather than the API's own shape. */
export function isRunDocumentBody(body: unknown): body is Record<string, unknown> {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    ('apiVersion' in body || 'kind' in body)
  );
}

/**
 * `POST /api/pipelineruns`: the API's own shape, or a Tekton `tekton.dev/v1` PipelineRun or
 * TaskRun document — a JSON object with `apiVersion` and `kind`, or YAML text (content type
 * application/yaml or text/yaml), read as `kubectl create -f` would. A document comes out as
 * `{ document }` and is read by the server, which names the document's path and line in its errors.
 */
export const createPipelineRunBodySchema = z
  .unknown()
  .transform((body, ctx): CreatePipelineRunRequest | { document: string | Record<string, unknown> } => {
    if (typeof body === 'string' || isRunDocumentBody(body)) return { document: body };
    const parsed = createPipelineRunSchema.safeParse(body);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  });

/** `POST /api/pipelineruns?environmentId=`: the environment a document's run targets. */
export const createPipelineRunQuerySchema = z.object({
  environmentId: z.string().min(1).max(64).optional(),
});

/** `GET /api/pipelineruns/:id/export`: JSON, or YAML with `?format=yaml` or `Accept: application/yaml`. */
export const pipelineRunExportQuerySchema = z.object({ format: z.enum(['json', 'yaml']).optional() });

export const pipelineRunListQuerySchema = pageRules(
  listQuerySchema.safeExtend({
    status: z
      .string()
      .transform((v) => v.toLowerCase())
      .pipe(z.enum(Object.keys(RUN_STATUS_FILTERS) as [string, ...string[]]))
      .optional(),
    pipelineId: z.string().max(64).optional(),
    /** runs queued at or after this instant (the studio's date range presets) */
    from: z.iso.datetime({ offset: true, message: 'from must be an ISO 8601 date-time' }).optional(),
    /** runs queued before this instant */
    to: z.iso.datetime({ offset: true, message: 'to must be an ISO 8601 date-time' }).optional(),
    _sort: z.enum(['queuedAt', 'number', 'status', 'id']).default('queuedAt'),
    _order: sortOrderSchema('DESC'),
  }),
);
export type PipelineRunListQuery = z.infer<typeof pipelineRunListQuerySchema>;

/**
 * Where a run came from: `kind` (user, webhook, schedule, push, rerun, rollback), the id of what
 * started it (the person, webhook, schedule, application or earlier run), `by` as people read it
 * (an e-mail, a service account's or schedule's name, the pusher) and, for code, the commit,
 * branch and author.
 */
export const runTriggerSchema = z.object({
  kind: z.string(),
  id: z.string().nullable().optional(),
  by: z.string().nullable().optional(),
  commit: z.string().nullable().optional(),
  branch: z.string().nullable().optional(),
  author: z.string().nullable().optional(),
  /** A run created from a Tekton document: the document's kind (its export gives the rest back). */
  document: z.object({ kind: z.enum(['PipelineRun', 'TaskRun']) }).optional(),
});
export type RunTrigger = z.infer<typeof runTriggerSchema>;

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
  trigger: runTriggerSchema,
  rerunOf: z.string().nullable(),
  rollbackOf: z.string().nullable(),
  /** The environment the run targets, or null. */
  environmentId: z.string().nullable(),
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
  ...idAndName(),
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

/** `GET /api/pipelineruns/:id/logs?download=1` sends the selection as an attachment. */
export const pipelineRunLogsDownloadSchema = z.object({
  download: z
    .enum(['0', '1', 'true', 'false'])
    .transform((v) => v === '1' || v === 'true')
    .optional(),
});

/** `GET /api/pipelineruns/:id/logs/search`: lines containing `q` (case-insensitive, ANSI escapes ignored). */
export const pipelineRunLogSearchQuerySchema = z
  .object({
    q: z.string().trim().min(1, 'q: give the text to search for').max(200),
    task: z.string().max(128).optional(),
    step: z.string().max(128).optional(),
    _start: z.coerce.number().int().min(0).default(0),
    _end: z.coerce.number().int().min(1).default(100),
  })
  .refine((q) => q._end > q._start, { message: '_end must be greater than _start', path: ['_end'] })
  .refine((q) => q._end - q._start <= 1000, { message: 'at most 1000 matches per page', path: ['_end'] });
export type PipelineRunLogSearchQuery = z.infer<typeof pipelineRunLogSearchQuerySchema>;

export const logSearchMatchSchema = z.object({
  task: z.string(),
  step: z.string(),
  /** 1-based line number within the task's log (what `?task=` shows). */
  line: z.number().int(),
  text: z.string(),
});
export const logSearchResultSchema = z.array(logSearchMatchSchema);
export type LogSearchMatch = z.infer<typeof logSearchMatchSchema>;

/** The live log socket: `GET /api/ws/pipelineruns/:id/logs?task=&step=&offset=`. */
export const LOG_STREAM_PATH = 'pipelineruns';
export const logStreamQuerySchema = pipelineRunLogsQuerySchema;

/**
 * One log line in a socket frame: `[step, stream, at (epoch ms), text]`. Text keeps ANSI escapes;
 * secrets are already masked.
 */
export const logStreamLineSchema = z.tuple([
  z.string(),
  z.enum(['stdout', 'stderr', 'system']),
  z.number(),
  z.string(),
]);
export type LogStreamLine = z.infer<typeof logStreamLineSchema>;

/**
 * Lines by column, as frames carry them: `text` per line; `runs` the run-length list
 * `[step, stream, count, …]`; `at` the run-length list `[epoch ms, count, …]`. About a third of
 * the bytes of one array per line, and cheaper to parse.
 */
export const logLinesColumnsSchema = z.object({
  runs: z.array(z.union([z.string(), z.number()])),
  at: z.array(z.number()),
  text: z.array(z.string()),
});
export type LogLinesColumns = z.infer<typeof logLinesColumnsSchema>;

/**
 * Frames the server sends. Lines arrive in the order they were stored (per task in order;
 * across tasks by arrival); `from` is the 0-based offset of the first line in the selection, so a
 * client that reconnects with `offset` = the last `from + text.length` misses and repeats nothing.
 */
export const logStreamFrameSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('lines'),
    task: z.string(),
    from: z.number().int().min(0),
    ...logLinesColumnsSchema.shape,
  }),
  /** The task (with `task=`) or the run has finished; no more lines come. The socket then closes. */
  z.object({ type: z.literal('end'), status: z.string(), next: z.number().int().min(0) }),
  /** The stream cannot go on (e.g. the run has no such task); the socket then closes. */
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type LogStreamFrame = z.infer<typeof logStreamFrameSchema>;

export function encodeLogLines(lines: readonly LogStreamLine[]): LogLinesColumns {
  const runs: (string | number)[] = [];
  const at: number[] = [];
  const text: string[] = [];
  let key: string | undefined;
  let time: number | undefined;
  for (const [step, stream, when, body] of lines) {
    if (`${step}\u0000${stream}` !== key) {
      runs.push(step, stream, 1);
      key = `${step}\u0000${stream}`;
    } else (runs[runs.length - 1] as number)++;
    if (when !== time) {
      at.push(when, 1);
      time = when;
    } else at[at.length - 1]!++;
    text.push(body);
  }
  return { runs, at, text };
}

export function decodeLogLines(columns: LogLinesColumns): LogStreamLine[] {
  const out: LogStreamLine[] = [];
  let r = 0;
  let left = 0;
  let step = '';
  let stream: LogStreamLine[1] = 'stdout';
  let a = 0;
  let timeLeft = 0;
  let time = 0;
  for (const body of columns.text) {
    if (left === 0) {
      step = String(columns.runs[r]);
      stream = columns.runs[r + 1] as LogStreamLine[1];
      left = Number(columns.runs[r + 2]);
      r += 3;
    }
    if (timeLeft === 0) {
      time = columns.at[a]!;
      timeLeft = columns.at[a + 1]!;
      a += 2;
    }
    left--;
    timeLeft--;
    out.push([step, stream, time, body]);
  }
  return out;
}

/** The subprotocol a browser asks for; the server picks it. */
export const WS_PROTOCOL = 'slipway.v1';
/** Prefixes of the subprotocol entries that carry what a browser cannot send as headers. */
export const WS_CREDENTIAL_PREFIXES = {
  authorization: 'auth.',
  workspace: 'workspace.',
  fingerprint: 'fingerprint.',
} as const;

function base64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The Sec-WebSocket-Protocol list for a socket under `/api/ws/`: the protocol itself, then the
 * session token, workspace and fingerprint as base64url entries (browsers cannot set headers on
 * a WebSocket, and query strings end up in access logs).
 */
export function webSocketProtocols(credentials: {
  authorization?: string | null;
  workspace?: string | null;
  fingerprint?: string | null;
}): string[] {
  const out = [WS_PROTOCOL];
  for (const key of ['authorization', 'workspace', 'fingerprint'] as const) {
    const value = credentials[key];
    if (value) out.push(WS_CREDENTIAL_PREFIXES[key] + base64url(value));
  }
  return out;
}
