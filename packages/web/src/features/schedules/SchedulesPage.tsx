import EventRepeat from '@mui/icons-material/EventRepeat';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Schedule } from '@slipway/contracts';
import { errorMessage } from '../../ui/api-error';
import { listStates } from '../../ui/list-states';
import { EmptyState } from '../../ui/EmptyState';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useListParams } from '../../ui/useListParams';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { ListAreaPage } from '../access/ListAreaPage';
import { useCan } from '../access/usePermission';
import { useDeleteScheduleMutation, useSchedulesQuery, useUpdateScheduleMutation } from './api';
import { ScheduleDialog } from './ScheduleDialog';
import { SchedulesTable, type ScheduleAction } from './SchedulesTable';

const PERMISSION = { edit: 'schedules:edit', toggle: 'schedules:edit', delete: 'schedules:delete' } as const;

/** Schedules: pipelines started on a timetable, with their next and last runs. */
export default function SchedulesPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('schedules.title'));
  const can = useCan();
  const listParams = useListParams({ sort: { key: 'name', order: 'asc' } });
  const list = useSchedulesQuery(listParams.params);
  const [dialog, setDialog] = useState<{ schedule?: Schedule } | null>(null);
  const deletion = useConfirmDelete(useDeleteScheduleMutation(), (schedule: Schedule) => ({
    title: t('schedules.confirmDelete.title', { name: schedule.name }),
    body: t('schedules.confirmDelete.body'),
  }));
  const [update, updating] = useUpdateScheduleMutation();

  function onAction(action: ScheduleAction, schedule: Schedule) {
    if (action === 'edit') setDialog({ schedule });
    else if (action === 'toggle') void update({ id: schedule.id, body: { enabled: !schedule.enabled } });
    else deletion.ask(schedule);
  }

  const body = (
    <SchedulesTable
      schedules={list.data?.rows}
      states={listStates(list, t('schedules.loadError'), {
        empty: (
          <EmptyState icon={EventRepeat} title={t('schedules.emptyTitle')}>
            <Typography color="text.secondary">{t('schedules.emptyBody')}</Typography>
          </EmptyState>
        ),
        ...listParams.table,
      })}
      allowed={(a) => can(PERMISSION[a])}
      onAction={onAction}
    />
  );

  return (
    <ListAreaPage
      id="schedules"
      title={t('schedules.title')}
      create={{ permission: 'schedules:create', label: t('schedules.create'), onClick: () => setDialog({}) }}
      notice={{ message: updating.error ? errorMessage(updating.error) : null }}
      section={{ id: 'schedules-heading', title: t('schedules.listTitle') }}
      list={body}
    >
      {dialog ? <ScheduleDialog schedule={dialog.schedule} onClose={() => setDialog(null)} /> : null}
      {deletion.dialog}
    </ListAreaPage>
  );
}
