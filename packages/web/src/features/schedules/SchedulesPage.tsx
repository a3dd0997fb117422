import Add from '@mui/icons-material/Add';
import EventRepeat from '@mui/icons-material/EventRepeat';
import Box from '@mui/material/Box';
import TablePagination from '@mui/material/TablePagination';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Schedule } from '@slipway/contracts';
import { errorMessage } from '../../app/api-error';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EmptyState } from '../../ui/EmptyState';
import { FormAlert } from '../../ui/FormAlert';
import { LoadError } from '../../ui/LoadError';
import { Section } from '../../ui/Section';
import { Skeleton } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { PermissionButton } from '../access/Can';
import { useCan } from '../access/usePermission';
import { useDeleteScheduleMutation, useSchedulesQuery, useUpdateScheduleMutation } from './api';
import { ScheduleDialog } from './ScheduleDialog';
import { SchedulesTable, type ScheduleAction } from './SchedulesTable';

const PAGE_SIZES = [10, 25, 50];
const PERMISSION = { edit: 'schedules:edit', toggle: 'schedules:edit', delete: 'schedules:delete' } as const;

/** Schedules: pipelines started on a timetable, with their next and last runs. */
export default function SchedulesPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('schedules.title'));
  const can = useCan();
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(PAGE_SIZES[0]!);
  const params = {
    _start: String(page * rowsPerPage),
    _end: String((page + 1) * rowsPerPage),
    _sort: 'name',
  };
  const { data, error, isLoading, isFetching, refetch } = useSchedulesQuery(params);
  const [dialog, setDialog] = useState<{ schedule?: Schedule } | null>(null);
  const [deleting, setDeleting] = useState<Schedule | null>(null);
  const [remove, removal] = useDeleteScheduleMutation();
  const [update, updating] = useUpdateScheduleMutation();
  const closeDelete = () => {
    removal.reset();
    setDeleting(null);
  };

  function onAction(action: ScheduleAction, schedule: Schedule) {
    if (action === 'edit') setDialog({ schedule });
    else if (action === 'toggle') void update({ id: schedule.id, body: { enabled: !schedule.enabled } });
    else setDeleting(schedule);
  }

  let body;
  if (isLoading) body = <Skeleton lines={4} />;
  else if (!data)
    body = (
      <LoadError
        what={t('schedules.loadError')}
        error={error}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  else if (data.total === 0)
    body = (
      <EmptyState icon={EventRepeat} title={t('schedules.emptyTitle')}>
        <Typography color="text.secondary">{t('schedules.emptyBody')}</Typography>
      </EmptyState>
    );
  else
    body = (
      <>
        <SchedulesTable schedules={data.rows} allowed={(a) => can(PERMISSION[a])} onAction={onAction} />
        <TablePagination
          component="div"
          count={data.total}
          page={page}
          rowsPerPage={rowsPerPage}
          rowsPerPageOptions={PAGE_SIZES}
          onPageChange={(_e, p) => setPage(p)}
          onRowsPerPageChange={(e) => {
            setRowsPerPage(Number(e.target.value));
            setPage(0);
          }}
        />
      </>
    );

  return (
    <Box data-testid="area-schedules" sx={{ maxWidth: 1200, display: 'grid', gap: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1" sx={{ flex: 1 }}>
          {t('schedules.title')}
        </Typography>
        <PermissionButton
          permission="schedules:create"
          variant="contained"
          startIcon={<Add />}
          onClick={() => setDialog({})}
        >
          {t('schedules.create')}
        </PermissionButton>
      </Box>
      <FormAlert message={updating.error ? errorMessage(updating.error) : null} />
      <Section id="schedules-heading" title={t('schedules.listTitle')}>
        {body}
      </Section>
      {dialog ? <ScheduleDialog schedule={dialog.schedule} onClose={() => setDialog(null)} /> : null}
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('schedules.confirmDelete.title', { name: deleting?.name ?? '' })}
        body={t('schedules.confirmDelete.body')}
        confirmLabel={t('common.delete')}
        loading={removal.isLoading}
        error={removal.error ? errorMessage(removal.error) : null}
        onClose={closeDelete}
        onConfirm={async () => {
          if (deleting && !(await remove(deleting.id)).error) closeDelete();
        }}
      />
    </Box>
  );
}
