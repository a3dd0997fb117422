import { useTranslation } from 'react-i18next';
import type { AuditEventView } from '@slipway/contracts';
import { timeColumn } from '../../ui/columns';
import { DataTable, type Column, type TableStates } from '../../ui/DataTable';
import { TranslatedStatusChip, type ChipColor } from '../../ui/StatusChip';

export const AUDIT_PAGE_SIZES = [25, 50, 100];
const OUTCOME_COLOR: Record<AuditEventView['outcome'], ChipColor> = {
  success: 'success',
  failure: 'error',
  denied: 'warning',
};

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
    timeColumn<AuditEventView>('time', t('audit.columns.time'), (e) => e.at, i18n.language, {
      sortKey: 'at',
    }),
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
      cell: (e) => <TranslatedStatusChip status={e.outcome} colors={OUTCOME_COLOR} labels="audit.outcomes" />,
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
