import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { PipelineRunView } from '@slipway/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { timeColumn } from '../../ui/columns';
import type { Column } from '../../ui/DataTable';
import { RunTriggerCell } from './RunTrigger';
import { EmptyState } from '../../ui/EmptyState';
import { listStates } from '../../ui/list-states';
import { TableSection } from '../../ui/TableSection';
import { useListParams } from '../../ui/useListParams';
import { usePipelinesQuery, useRunsQuery } from './api';
import { DATE_RANGE_PRESETS, dateRangeParams, type DateRangePreset } from './date-ranges';
import { ACTIVE_STATUSES, durationOf, RUN_FILTERS } from './format';
import { StatusChip } from './StatusChip';
import { selectOptions } from '../../ui/select-options';

const PAGE_SIZES = [10, 25, 50];
/** how often the list refreshes while a run on it is pending or in progress */
export const RUN_LIST_POLL_MS = 3000;

/**
 * Pipeline runs, newest first (or sorted by number or status from the headers), filtered by
 * status and paged; live while any run is active. On a phone the run and its status stay.
 */
export function RunList({ pipelineId }: { pipelineId?: string }) {
  const { t, i18n } = useTranslation();
  const [status, setStatus] = useState('');
  const [range, setRange] = useState<DateRangePreset | ''>('');
  // the range's instants are fixed when it is picked, so polling asks for the same page
  const [rangeParams, setRangeParams] = useState<Record<string, string>>({});
  const listParams = useListParams({ sizes: PAGE_SIZES });
  const { paging } = listParams;
  const [active, setActive] = useState(false);
  // unsorted, the server's order: newest queued first
  const params: Record<string, string> = { ...listParams.params };
  if (!listParams.sort) params._order = 'DESC';
  if (status) params.status = status;
  Object.assign(params, rangeParams);
  if (pipelineId) params.pipelineId = pipelineId;
  const list = useRunsQuery(params, { pollingInterval: active ? RUN_LIST_POLL_MS : 0 });
  const anyActive = Boolean(list.data?.rows.some((r) => ACTIVE_STATUSES.includes(r.status)));
  if (anyActive !== active) setActive(anyActive);
  const { data: pipelines } = usePipelinesQuery({ _start: '0', _end: '500' }, { skip: Boolean(pipelineId) });
  const pipelineName = (run: PipelineRunView) =>
    pipelines?.rows.find((p) => p.id === run.pipelineId)?.name ??
    // a run document's own pipeline is not among the workspace's pipelines
    (run.trigger.document
      ? t('pipelines.fromYaml.fromDocument', { kind: run.trigger.document.kind })
      : run.pipelineId);

  const columns: Column<PipelineRunView>[] = [
    {
      id: 'run',
      header: t('pipelines.columns.run'),
      cell: (r) => `${r.name} #${r.number}`,
      primary: true,
      sortKey: 'number',
    },
    // on a pipeline's own page every run is of that pipeline: the column would only repeat it
    ...(pipelineId
      ? []
      : [
          {
            id: 'pipeline',
            header: t('pipelines.columns.pipeline'),
            cell: (r: PipelineRunView) => pipelineName(r),
            hideBelow: 'sm' as const,
          },
        ]),
    {
      id: 'status',
      header: t('pipelines.columns.status'),
      cell: (r) => <StatusChip status={r.status} />,
      sortKey: 'status',
    },
    {
      id: 'trigger',
      header: t('pipelines.columns.trigger'),
      cell: (r) => <RunTriggerCell trigger={r.trigger} />,
      hideBelow: 'md',
    },
    timeColumn<PipelineRunView>(
      'started',
      t('pipelines.columns.started'),
      (r) => r.startedAt,
      i18n.language,
      {
        hideBelow: 'sm',
      },
    ),
    {
      id: 'duration',
      header: t('pipelines.columns.duration'),
      cell: (r) => durationOf(r.startedAt, r.finishedAt),
      hideBelow: 'sm',
    },
  ];
  return (
    <TableSection
      id="pipeline-runs-title"
      title={t('pipelines.runsTitle')}
      columns={columns}
      rows={list.data?.rows}
      getRowId={(r) => r.id}
      rowHref={(r) => `/pipelines/runs/${r.id}`}
      rowTestId="run-row"
      {...listStates(list, t('pipelines.runsLoadError'), {
        skeletonRows: 6,
        empty: <EmptyState title={status || range ? t('pipelines.noRunsFiltered') : t('pipelines.noRuns')} />,
        ...listParams.table,
      })}
      action={
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <TextField
            select
            size="small"
            label={t('pipelines.statusFilter')}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              paging.setPage(0);
            }}
            sx={{ minWidth: 180 }}
          >
            <MenuItem value="">{t('pipelines.allStatuses')}</MenuItem>
            {selectOptions(RUN_FILTERS, ([key, value]) => [value, t(`pipelines.filters.${key}`)])}
          </TextField>
          <TextField
            select
            size="small"
            label={t('studio.dateRange.label')}
            value={range}
            onChange={(e) => {
              const preset = e.target.value as DateRangePreset | '';
              setRange(preset);
              setRangeParams(dateRangeParams(preset, new Date()));
              paging.setPage(0);
            }}
            sx={{ minWidth: 180 }}
          >
            <MenuItem value="">{t('studio.dateRange.all')}</MenuItem>
            {selectOptions(DATE_RANGE_PRESETS, (p) => [p, t(`studio.dateRange.${p}`)])}
          </TextField>
        </Stack>
      }
    />
  );
}
