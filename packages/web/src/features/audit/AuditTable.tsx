import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import { useTranslation } from 'react-i18next';
import type { AuditEventView } from '@slipway/contracts';

export const AUDIT_PAGE_SIZES = [25, 50, 100];
const OUTCOME_COLOR = { success: 'success', failure: 'error', denied: 'warning' } as const;

/** Audit events, newest first: time, actor, action, target, outcome, IP. */
export function AuditTable({
  events,
  total,
  page,
  rowsPerPage,
  onPageChange,
  onRowsPerPageChange,
}: {
  events: AuditEventView[];
  total: number;
  page: number;
  rowsPerPage: number;
  onPageChange: (page: number) => void;
  onRowsPerPageChange: (rows: number) => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <TableContainer>
        <Table size="small" aria-label={t('audit.tableLabel')}>
          <TableHead>
            <TableRow>
              {(['time', 'actor', 'action', 'target', 'outcome', 'ip'] as const).map((c) => (
                <TableCell key={c}>{t(`audit.columns.${c}`)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {events.map((e) => (
              <TableRow key={e.id} data-testid="audit-row">
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {new Date(e.at).toLocaleString(i18n.language)}
                </TableCell>
                <TableCell>{e.actorLabel ?? e.actorId ?? t(`audit.actorTypes.${e.actorType}`)}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{e.action}</TableCell>
                <TableCell>{[e.targetType, e.targetId].filter(Boolean).join(' ')}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={OUTCOME_COLOR[e.outcome]}
                    label={t(`audit.outcomes.${e.outcome}`)}
                  />
                </TableCell>
                <TableCell>{e.ip}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={total}
        page={page}
        rowsPerPage={rowsPerPage}
        rowsPerPageOptions={AUDIT_PAGE_SIZES}
        onPageChange={(_, p) => onPageChange(p)}
        onRowsPerPageChange={(e) => onRowsPerPageChange(Number(e.target.value))}
      />
    </>
  );
}
