import FileDownload from '@mui/icons-material/FileDownload';
import History from '@mui/icons-material/History';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '@slipway/contracts';
import { useAppSelector } from '../../app/hooks';
import { AreaPage } from '../../ui/AreaPage';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { FormAlert } from '../../ui/FormAlert';
import type { Sort } from '../../ui/DataTable';
import { listStates } from '../../ui/list-states';
import { usePaging } from '../../ui/ListPager';
import { Section } from '../../ui/Section';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { usePermission } from '../access/usePermission';
import { useMembersQuery } from '../team/api';
import { useAuditEventsQuery } from './api';
import { exportPath, listParams, NO_FILTERS, type AuditFilters } from './audit-query';
import { AuditFiltersBar } from './AuditFiltersBar';
import { AUDIT_PAGE_SIZES, AuditTable } from './AuditTable';
import { downloadApiFile } from '../../app/download-file';

const TYPING_PAUSE_MS = 300;

/** Audit trails: who did what, when and from where, filtered, paged and exported as CSV. */
export default function AuditTrailsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('audit.title'));
  const auth = useAppSelector((s) => s.auth);
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  // text filters are asked for once the user pauses typing
  const [applied, setApplied] = useState<AuditFilters>(NO_FILTERS);
  const paging = usePaging(AUDIT_PAGE_SIZES);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const canSeeMembers = usePermission('members:view').allowed;
  const { data: members } = useMembersQuery({ start: 0, end: 500 }, { skip: !canSeeMembers });
  // the trail is in time order: its Time header turns it oldest first and back
  const [sort, setSort] = useState<Sort>({ key: 'at', order: 'desc' });
  const query = useAuditEventsQuery(
    listParams(applied, paging.page, paging.rowsPerPage, sort.order === 'asc'),
  );
  const { data } = query;

  useEffect(() => {
    if (filters === applied) return;
    const timer = setTimeout(
      () => setApplied(filters),
      filters.action === applied.action ? 0 : TYPING_PAUSE_MS,
    );
    return () => clearTimeout(timer);
  }, [filters, applied]);

  function change(patch: Partial<AuditFilters>) {
    setFilters((f) => ({ ...f, ...patch }));
    paging.setPage(0);
  }

  async function exportCsv() {
    setExporting(true);
    setExportError(null);
    try {
      const failed = await downloadApiFile(exportPath(applied), auth, 'audit.csv');
      if (failed !== null)
        setExportError(failed === 403 ? MESSAGES.actionNotAllowed : MESSAGES.somethingWentWrongDefault);
    } catch {
      setExportError(MESSAGES.somethingWentWrongDefault);
    } finally {
      setExporting(false);
    }
  }

  const body = (
    <AuditTable
      events={data?.events}
      states={listStates(query, t('audit.loadError'), {
        skeletonRows: 8,
        empty: (
          <EmptyState icon={History} title={t('audit.emptyTitle')}>
            <Typography color="text.secondary">{t('audit.emptyBody')}</Typography>
          </EmptyState>
        ),
        paging,
        sort,
        onSortChange: (next: Sort) => {
          setSort(next);
          paging.setPage(0);
        },
      })}
    />
  );

  return (
    <AreaPage
      id="auditTrails"
      title={t('audit.title')}
      actions={
        <Button
          variant="outlined"
          startIcon={<FileDownload />}
          loading={exporting}
          onClick={() => void exportCsv()}
        >
          {t('audit.export')}
        </Button>
      }
    >
      <FormAlert message={exportError} />
      <Section id="audit-heading" title={t('audit.events')}>
        <Stack spacing={2}>
          <AuditFiltersBar filters={filters} onChange={change} actors={members?.members} />
          {body}
        </Stack>
      </Section>
    </AreaPage>
  );
}
