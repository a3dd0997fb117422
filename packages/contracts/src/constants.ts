/** Business constants and limits from spec §9. Times are milliseconds unless named otherwise. */

export const SENTRY = {
  tracesSampleRate: 1,
  replaysSessionSampleRate: 0.1,
  replaysOnErrorSampleRate: 1,
  /** failed-request capture for HTTP statuses 500 to 505 and 507 */
  failedRequestStatusCodes: [[500, 505], 507] as Array<[number, number] | number>,
  consoleCaptureDepth: 60,
} as const;

export const TOUR_TIMING = {
  targetPollMs: 300,
  clusterDetailsPollMs: 150,
  runButtonPollMs: 500,
  autoAdvanceMs: 5000,
  pipelineFinishedPollMs: 1000,
  afterBuildTaskClickMs: 400,
  longDelayMs: 1000,
  shortDelayMs: 100,
} as const;

export const TOUR_KEY_CODES = { escape: 27, left: 37, right: 39 } as const;
export const TOUR_POPOVER = { maxWidth: 353, padding: 10 } as const;

/** Cluster heartbeat takes about 5 minutes. */
export const CLUSTER_HEARTBEAT_EXPECTED_MS = 5 * 60 * 1000;
/** Cluster creation takes up to 2 hours. */
export const CLUSTER_CREATION_MAX_MS = 2 * 60 * 60 * 1000;
/** Redirect to pipelines 3 seconds after the cluster connects. */
export const CLUSTER_CONNECTED_REDIRECT_MS = 3000;

export const LOADING_TITLE_ROTATION_MS = 3000;
export const COUNTDOWN_DEFAULT_SECONDS = 60;

/** State persistence. */
export const PERSIST_TIMEOUT_MS = 5000;
export const ONBOARDING_PERSIST_KEY = 'onboarding-root';

/** Fetch cache defaults (RTK Query). */
export const FETCH_CACHE = {
  keepUnusedDataForSeconds: 60,
  refetchOnFocus: false,
  refetchOnReconnect: false,
  refetchOnMountOrArgChange: false,
} as const;
/** Our own request timeout for the fetch layer (not in the spec; a request past it is TIMEOUT_ERROR). */
export const FETCH_TIMEOUT_MS = 30_000;

/** Pipeline run timeout is in hours, default 1 hour. */
export const PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS = 1;

/** Backups after initiation repeat hourly from the start time. */
export const BACKUP_REPEAT_MS = 60 * 60 * 1000;

export const DATE_RANGE_PRESETS = [
  'last_7_days',
  'this_month',
  'last_month',
  'last_3_months',
  'this_year',
  'last_6_months',
] as const;
export type DateRangePreset = (typeof DATE_RANGE_PRESETS)[number];

export const PLANS = [
  { id: 'free', name: 'Free', limit: 'up to 24 vCPU', maxVcpu: 24 },
  { id: 'starter', name: 'Starter', limit: 'up to 50 members', maxMembers: 50 },
  { id: 'enterprise', name: 'Enterprise', limit: 'custom; upgrade by e-mailing sales' },
] as const;

/** Default installedResources ids (spec §3, cluster). */
export const DEFAULT_INSTALLED_RESOURCES = {
  setup: [6, 7],
  custom: [1, 3, 5, 7, 9, 12],
  defaultCluster: [1, 3, 5, 7, 9, 12],
} as const;

/** Limited agent default allowed namespaces (spec §3, §6). */
export const LIMITED_AGENT_DEFAULT_NAMESPACES = ['ozone'] as const;
export const DEFAULT_CLUSTER_NAMESPACE = 'default';
