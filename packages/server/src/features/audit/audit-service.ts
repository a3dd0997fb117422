import {
  parseIsoDate,
  type AuditEventView,
  type AuditFilterQuery,
  type AuditListQuery,
} from '@slipway/contracts';
import { dateRange } from './date-range.js';
import type { AuditEvent, AuditFilter, AuditStore } from './audit-store.js';
import { csvRow } from './csv.js';
import { AUDIT_CSV_COLUMNS } from '@slipway/contracts';

const DAY_MS = 24 * 60 * 60 * 1000;
const EXPORT_BATCH = 500;

/** The store's filter for a query: explicit from/to win over a named range. */
export function filterOf(organisationId: string, q: AuditFilterQuery, now: Date): AuditFilter {
  const filter: AuditFilter = { organisationId };
  if (q.workspaceId) filter.workspaceId = q.workspaceId;
  if (q.actor) filter.actorId = q.actor;
  if (q.action) filter.action = q.action;
  if (q.targetType) filter.targetType = q.targetType;
  if (q.targetId) filter.targetId = q.targetId;
  if (q.outcome) filter.outcome = q.outcome;
  if (q.from || q.to) {
    const from = q.from ? parseIsoDate(q.from) : null;
    const to = q.to ? parseIsoDate(q.to) : null;
    if (from) filter.from = from;
    // A date without a time means the whole of that day.
    if (to) filter.to = q.to!.trim().length === 10 ? new Date(to.getTime() + DAY_MS) : to;
  } else if (q.range) {
    const w = dateRange(q.range, now);
    filter.from = w.from;
    filter.to = w.to;
  }
  return filter;
}

export function viewOf(e: AuditEvent): AuditEventView {
  return {
    id: Number(e.id),
    at: e.at.toISOString(),
    organisationId: e.organisationId,
    workspaceId: e.workspaceId,
    actorType: e.actorType,
    actorId: e.actorId,
    actorLabel: e.actorLabel,
    action: e.action,
    targetType: e.targetType,
    targetId: e.targetId,
    ip: e.ip,
    userAgent: e.userAgent,
    fingerprint: e.fingerprint,
    outcome: e.outcome,
    statusCode: e.statusCode,
    detail: e.detail,
  };
}

function csvOf(e: AuditEvent): string {
  return csvRow([
    e.at.toISOString(),
    e.actorLabel ?? e.actorId,
    e.actorType,
    e.organisationId,
    e.workspaceId,
    e.action,
    e.targetType,
    e.targetId,
    e.outcome,
    e.statusCode,
    e.ip,
    e.userAgent,
    e.fingerprint,
  ]);
}

/** Reading the audit trail. There is deliberately nothing here that changes or deletes a record. */
export class AuditService {
  constructor(
    private readonly store: AuditStore,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async list(organisationId: string, q: AuditListQuery): Promise<{ rows: AuditEventView[]; total: number }> {
    const { rows, total } = await this.store.list(filterOf(organisationId, q, this.clock()), {
      start: q._start,
      end: q._end,
      order: q._order,
    });
    return { rows: rows.map(viewOf), total };
  }

  /** The CSV export, header first, oldest event first, read from the store in batches. */
  async *exportCsv(organisationId: string, q: AuditFilterQuery): AsyncGenerator<string> {
    const filter = filterOf(organisationId, q, this.clock());
    yield csvRow([...AUDIT_CSV_COLUMNS]);
    let after = 0;
    for (;;) {
      const rows = await this.store.scan(filter, after, EXPORT_BATCH);
      if (rows.length === 0) return;
      yield rows.map(csvOf).join('');
      after = Number(rows[rows.length - 1]!.id);
      if (rows.length < EXPORT_BATCH) return;
    }
  }
}
