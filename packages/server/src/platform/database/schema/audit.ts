import { bigserial, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { stamped } from './columns.js';

/** The audit trail (issue 3). */

/** The audit trail. Rows are only ever inserted: a trigger refuses UPDATE and DELETE. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: stamped('at'),
    organisationId: text('organisation_id'),
    workspaceId: text('workspace_id'),
    /** user | service_account | anonymous */
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    actorLabel: text('actor_label'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    fingerprint: text('fingerprint'),
    /** success | failure | denied */
    outcome: text('outcome').notNull(),
    statusCode: integer('status_code'),
    detail: jsonb('detail'),
  },
  (t) => [index('audit_org_at').on(t.organisationId, t.at), index('audit_actor').on(t.actorId)],
);
