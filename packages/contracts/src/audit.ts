import { z } from 'zod';
import { DATE_RANGE_PRESETS } from './constants.js';
import { MESSAGES } from './messages.js';
import { listQuerySchema, sortOrderSchema } from './paging.js';

// ── Audit trail ─────────────────────────────────────────────────────────────────────────────

export const AUDIT_OUTCOMES = ['success', 'failure', 'denied'] as const;
export type AuditOutcomeName = (typeof AUDIT_OUTCOMES)[number];

const ISO_DATE_RE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An ISO 8601 date ('2025-03-31') or date-time ('2025-03-31T12:00:00Z'); null when it is not one
 * or names a day that does not exist (2025-02-30). A date without a zone is read as UTC.
 */
export function parseIsoDate(value: string): Date | null {
  const v = value.trim();
  if (!ISO_DATE_RE.test(v)) return null;
  const dateOnly = v.length === 10;
  const withZone = dateOnly || /(?:Z|[+-]\d{2}:?\d{2})$/.test(v) ? v : `${v}Z`;
  const d = new Date(withZone);
  if (Number.isNaN(d.getTime())) return null;
  // The calendar day must exist: JavaScript turns 2025-02-30 into 2025-03-02.
  const [y, m, day] = v.slice(0, 10).split('-').map(Number);
  const check = new Date(Date.UTC(y!, m! - 1, day!));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m! - 1 || check.getUTCDate() !== day)
    return null;
  return d;
}

const isoDateSchema = z
  .string({ message: MESSAGES.invalidDate })
  .trim()
  .refine((v) => parseIsoDate(v) !== null, MESSAGES.invalidDate);

const filterText = z.string().trim().min(1).max(256);

/** Filters of the audit trail (list and CSV export). */
export const auditFilterSchema = z.object({
  /** the acting user's or service account's id */
  actor: filterText.optional(),
  action: filterText.optional(),
  targetType: filterText.optional(),
  targetId: filterText.optional(),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  /** one of the date ranges of spec §9; ignored when from or to is given */
  range: z.enum(DATE_RANGE_PRESETS).optional(),
  /** inclusive start: an ISO date or date-time */
  from: isoDateSchema.optional(),
  /** exclusive end; a date without a time means "through the end of that day" */
  to: isoDateSchema.optional(),
  /** only events in this workspace */
  workspaceId: filterText.optional(),
});

function fromBeforeTo(q: { from?: string | undefined; to?: string | undefined }): boolean {
  if (!q.from || !q.to) return true;
  const from = parseIsoDate(q.from);
  const to = parseIsoDate(q.to);
  return !from || !to || from.getTime() <= to.getTime();
}

export const auditExportQuerySchema = auditFilterSchema.refine(fromBeforeTo, {
  message: 'from must not be after to',
  path: ['to'],
});

/** The list convention (_start, _end, _order) plus the filters; newest first by default. */
export const auditListQuerySchema = listQuerySchema
  .safeExtend({
    ...auditFilterSchema.shape,
    _order: sortOrderSchema('DESC'),
  })
  .refine(fromBeforeTo, { message: 'from must not be after to', path: ['to'] });
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;
export type AuditFilterQuery = z.infer<typeof auditFilterSchema>;

export const auditEventSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  organisationId: z.string().nullable(),
  workspaceId: z.string().nullable(),
  actorType: z.enum(['user', 'service_account', 'anonymous']),
  actorId: z.string().nullable(),
  actorLabel: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  fingerprint: z.string().nullable(),
  outcome: z.enum(AUDIT_OUTCOMES),
  statusCode: z.number().int().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEventView = z.infer<typeof auditEventSchema>;
export const auditListResponseSchema = z.array(auditEventSchema);

/** Column headings of the CSV export, in order. */
export const AUDIT_CSV_COLUMNS = [
  'time',
  'actor',
  'actor type',
  'organisation',
  'workspace',
  'action',
  'target type',
  'target id',
  'outcome',
  'status',
  'ip',
  'user agent',
  'fingerprint',
] as const;
