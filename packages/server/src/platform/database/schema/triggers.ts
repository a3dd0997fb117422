import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { at, id, parentRef, stamped, timestamps } from './columns.js';
import { workspaceRow } from './identity.js';
import { pipelineRef } from './pipelines.js';

/** Triggers: webhooks and schedules (issue 4). */

/** A pipeline's webhook, received at /api/hooks/<id>. */
export const webhooks = pgTable(
  'webhooks',
  {
    ...workspaceRow(),
    pipelineId: pipelineRef(),
    /** github | gitlab | bitbucket */
    type: text('type').notNull(),
    /** the provider's event name, e.g. push, pull_request, merge_request, repo:push */
    event: text('event').notNull(),
    /** a glob on the branch name, e.g. main or release/* */
    branch: text('branch').notNull().default('*'),
    /** the shared secret (GitHub, Bitbucket) or token (GitLab), sealed with the master key */
    secretEncrypted: text('secret_encrypted').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdBy: text('created_by'),
    ...timestamps(),
    lastDeliveryAt: at('last_delivery_at'),
  },
  (t) => [index('webhooks_ws').on(t.workspaceId, t.createdAt)],
);

/** Every delivery a webhook received, and what became of it. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    webhookId: parentRef('webhook_id', () => webhooks.id),
    workspaceId: text('workspace_id').notNull(),
    receivedAt: stamped('received_at'),
    /** the provider's delivery id (X-GitHub-Delivery, X-Request-UUID…) when it sends one */
    deliveryId: text('delivery_id'),
    event: text('event'),
    /** triggered | ignored | rejected | failed */
    outcome: text('outcome').notNull(),
    statusCode: integer('status_code').notNull(),
    message: text('message').notNull().default(''),
    /** repository, branch, commit, author as read from the payload */
    params: jsonb('params'),
    runId: text('run_id'),
    payloadBytes: integer('payload_bytes').notNull().default(0),
  },
  (t) => [index('webhook_deliveries_hook').on(t.webhookId, t.receivedAt)],
);

/**
 * A provider's delivery id seen for a webhook: a replay of the same delivery (same id) starts no
 * second run. Written in the same transaction as the delivery that started a run (or was ignored).
 */
export const webhookDeliveryIds = pgTable(
  'webhook_delivery_ids',
  {
    webhookId: parentRef('webhook_id', () => webhooks.id),
    deliveryId: text('delivery_id').notNull(),
    receivedAt: stamped('received_at'),
  },
  (t) => [primaryKey({ columns: [t.webhookId, t.deliveryId] })],
);

/** A pipeline started on a timetable. */
export const schedules = pgTable(
  'schedules',
  {
    ...workspaceRow(),
    pipelineId: pipelineRef(),
    name: text('name').notNull(),
    /** hourly | daily | weekly | cron */
    frequency: text('frequency').notNull(),
    /** hourly: the minute past the hour */
    minute: integer('minute'),
    /** daily and weekly: HH:MM */
    time: text('time'),
    /** weekly: 0 (Sunday) … 6 */
    dayOfWeek: integer('day_of_week'),
    /** cron: a five-field expression */
    cron: text('cron'),
    /** an IANA time zone, e.g. Europe/London */
    timeZone: text('time_zone').notNull().default('UTC'),
    params: jsonb('params').notNull().default({}),
    timeoutHours: doublePrecision('timeout_hours').notNull().default(1),
    enabled: boolean('enabled').notNull().default(true),
    nextRunAt: at('next_run_at'),
    lastRunAt: at('last_run_at'),
    lastRunId: text('last_run_id'),
    /** why the last due run could not start; null when it did */
    lastError: text('last_error'),
    createdBy: text('created_by'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('schedules_ws_name').on(t.workspaceId, t.name),
    index('schedules_due').on(t.enabled, t.nextRunAt),
  ],
);
