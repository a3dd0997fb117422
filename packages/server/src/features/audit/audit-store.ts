import { and, asc, desc, eq, gt, gte, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AuditEventInput, AuditOutcome, AuditRecorder } from '../../platform/audit-recorder.js';
import type { AppDb } from '../../platform/database/database.js';
import { auditEvents, organisationMembers, users } from '../../platform/database/schema.js';

export type AuditEvent = AuditEventInput & { id: number; at: Date };

export interface AuditFilter {
  organisationId: string;
  workspaceId?: string;
  actorId?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  outcome?: AuditOutcome;
  from?: Date;
  to?: Date;
}

export interface AuditStore extends AuditRecorder {
  list(
    filter: AuditFilter,
    window: { start: number; end: number; order: 'ASC' | 'DESC' },
  ): Promise<{ rows: AuditEvent[]; total: number }>;
  /** Up to `limit` events with an id above `afterId`, oldest first: for exports that page by key. */
  scan(filter: AuditFilter, afterId: number, limit: number): Promise<AuditEvent[]>;
}

/**
 * The events an organisation sees: its own, plus sign-in events recorded before anyone was signed
 * in (no organisation yet) that name one of its members by e-mail.
 */
function conditionOf(filter: AuditFilter): SQL | undefined {
  const memberEmails = sql`(SELECT ${users.email} FROM ${users} JOIN ${organisationMembers} ON ${organisationMembers.userId} = ${users.id} WHERE ${organisationMembers.organisationId} = ${filter.organisationId})`;
  const where: (SQL | undefined)[] = [
    or(
      eq(auditEvents.organisationId, filter.organisationId),
      and(isNull(auditEvents.organisationId), sql`lower(${auditEvents.actorLabel}) IN ${memberEmails}`),
    ),
  ];
  if (filter.workspaceId) where.push(eq(auditEvents.workspaceId, filter.workspaceId));
  if (filter.actorId) {
    const emailOf = sql`(SELECT ${users.email} FROM ${users} WHERE ${users.id} = ${filter.actorId})`;
    where.push(
      or(
        eq(auditEvents.actorId, filter.actorId),
        and(isNull(auditEvents.actorId), sql`lower(${auditEvents.actorLabel}) = ${emailOf}`),
      ),
    );
  }
  if (filter.action) where.push(eq(auditEvents.action, filter.action));
  if (filter.targetType) where.push(eq(auditEvents.targetType, filter.targetType));
  if (filter.targetId) where.push(eq(auditEvents.targetId, filter.targetId));
  if (filter.outcome) where.push(eq(auditEvents.outcome, filter.outcome));
  if (filter.from) where.push(gte(auditEvents.at, filter.from));
  if (filter.to) where.push(lt(auditEvents.at, filter.to));
  return and(...where);
}

/** Append-only: the table's trigger refuses UPDATE and DELETE, and this store offers neither. */
export class SqlAuditStore implements AuditStore {
  constructor(private readonly db: AppDb) {}

  async append(event: AuditEventInput) {
    await this.db.insert(auditEvents).values(event);
  }

  async list(filter: AuditFilter, window: { start: number; end: number; order: 'ASC' | 'DESC' }) {
    const condition = conditionOf(filter);
    const [count] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(condition);
    const rows = await this.db
      .select()
      .from(auditEvents)
      .where(condition)
      .orderBy(window.order === 'ASC' ? auditEvents.id : desc(auditEvents.id))
      .offset(window.start)
      .limit(window.end - window.start);
    return { rows: rows as AuditEvent[], total: count?.n ?? 0 };
  }

  async scan(filter: AuditFilter, afterId: number, limit: number) {
    const rows = await this.db
      .select()
      .from(auditEvents)
      .where(and(conditionOf(filter), gt(auditEvents.id, afterId)))
      .orderBy(asc(auditEvents.id))
      .limit(limit);
    return rows as AuditEvent[];
  }
}
