import { HEALTH_STATUSES } from './agent-protocol.js';

/** Status enums from spec §4. */
export const PIPELINE_RUN_STATUS_FILTERS = [
  'failed',
  'completed',
  'pending',
  'in progress',
  'timed out',
  'cancelled',
] as const;
export const RUN_ACTIONS = ['run', 're-run', 'abort', 'run rollback'] as const;
/** Pipeline finished statuses; only success marks the pipeline completed. */
export const PIPELINE_FINISHED_STATUSES = ['success', 'failed', 'SUCCEEDED', 'FAILED'] as const;
export const PIPELINE_SUCCESS_STATUS = 'success';
/** A deployed application's health: what the agent reports of its resources. */
export const APPLICATION_HEALTH = HEALTH_STATUSES;
export const CLUSTER_AGENT_STATUSES = [
  'active',
  'not active',
  'in progress',
  'in creation',
  'creation failed',
] as const;
export const CLUSTER_ATTACH_STATES = ['connecting', 'connected', 'not connected'] as const;
export const INVOICE_STATUSES = ['paid', 'not paid', 'posted', 'payment due', 'voided'] as const;
export const EDITOR_MODES = ['edit', 'read only'] as const;
export const TOGGLE_STATES = ['enabled', 'disabled'] as const;
export const BACKUP_FREQUENCIES = ['hourly', 'daily', 'weekly'] as const;
