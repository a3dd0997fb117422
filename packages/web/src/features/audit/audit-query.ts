import {
  AUDIT_OUTCOMES,
  DATE_RANGE_PRESETS,
  type AuditOutcomeName,
  type DateRangePreset,
} from '@slipway/contracts';

/** The filters of the audit trail page; empty means "any". */
export interface AuditFilters {
  range: DateRangePreset | '';
  action: string;
  outcome: AuditOutcomeName | '';
  actor: string;
}

export const NO_FILTERS: AuditFilters = { range: '', action: '', outcome: '', actor: '' };
export const RANGE_OPTIONS = DATE_RANGE_PRESETS;
export const OUTCOME_OPTIONS = AUDIT_OUTCOMES;

/** The query parameters of the filters: only those that are set, text trimmed. */
export function filterParams(filters: AuditFilters): Record<string, string> {
  const out: Record<string, string> = {};
  if (filters.range) out.range = filters.range;
  if (filters.action.trim()) out.action = filters.action.trim();
  if (filters.outcome) out.outcome = filters.outcome;
  if (filters.actor.trim()) out.actor = filters.actor.trim();
  return out;
}

/** The list query: the filters plus the page (`_start`, `_end`), newest first unless `oldestFirst`. */
export function listParams(
  filters: AuditFilters,
  page: number,
  rowsPerPage: number,
  oldestFirst = false,
): Record<string, string> {
  return {
    ...filterParams(filters),
    _start: String(page * rowsPerPage),
    _end: String((page + 1) * rowsPerPage),
    _order: oldestFirst ? 'ASC' : 'DESC',
  };
}

/** `path?query` for the CSV export with the same filters. */
export function exportPath(filters: AuditFilters): string {
  const q = new URLSearchParams(filterParams(filters)).toString();
  return q ? `audit/export.csv?${q}` : 'audit/export.csv';
}
