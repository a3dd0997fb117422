import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { AuditEventView } from '@slipway/contracts';
import { DataTable, type Column, type TableStates } from '../../ui/DataTable';

export const AUDIT_PAGE_SIZES = [25, 50, 100];
const OUTCOME_COLOR = { success: 'success', failure: 'error', denied: 'warning' } as const;

/** Audit events, newest first: time, actor, action, target, outcome, IP. */
export function AuditTable({
  events,
  states,
}: {
  events: AuditEventView[] | undefined;
  /** The list's loading, error and empty states and its pager. */
  states?: TableStates;
}) {
  const { t, i18n } = useTranslation();
  const columns: Column<AuditEventView>[] = [
    {
      id: 'time',
      header: t('audit.columns.time'),
      cell: (e) => new Date(e.at).toLocaleString(i18n.language),
      sx: { whiteSpace: 'nowrap' },
    },
    {
      id: 'actor',
      header: t('audit.columns.actor'),
      cell: (e) => e.actorLabel ?? e.actorId ?? t(`audit.actorTypes.${e.actorType}`),
    },
    {
      id: 'action',
      header: t('audit.columns.action'),
      cell: (e) => e.action,
      sx: { fontFamily: 'monospace' },
    },
    {
      id: 'target',
      header: t('audit.columns.target'),
      cell: (e) => [e.targetType, e.targetId].filter(Boolean).join(' '),
    },
    {
      id: 'outcome',
      header: t('audit.columns.outcome'),
      cell: (e) => (
        <Chip size="small" color={OUTCOME_COLOR[e.outcome]} label={t(`audit.outcomes.${e.outcome}`)} />
      ),
    },
    { id: 'ip', header: t('audit.columns.ip'), cell: (e) => e.ip },
  ];
  return (
    <DataTable
      aria-label={t('audit.tableLabel')}
      columns={columns}
      rows={events}
      getRowId={(e) => e.id}
      rowTestId="audit-row"
      {...states}
    />
  );
}
