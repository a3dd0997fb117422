import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { LoadError } from '../../ui/LoadError';
import { Section } from '../../ui/Section';
import { Skeleton } from '../../ui/Skeleton';
import { usePipelinesQuery, useRunsQuery } from './api';
import { DATE_RANGE_PRESETS, dateRangeParams, type DateRangePreset } from './date-ranges';
import { ACTIVE_STATUSES, durationOf, formatTime, RUN_FILTERS } from './format';
import { StatusChip } from './StatusChip';

const PAGE_SIZES = [10, 25, 50];
/** how often the list refreshes while a run on it is pending or in progress */
export const RUN_LIST_POLL_MS = 3000;

/** Pipeline runs, newest first, filtered by status and paged; live while any run is active. */
export function RunList({ pipelineId }: { pipelineId?: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [status, setStatus] = useState('');
  const [range, setRange] = useState<DateRangePreset | ''>('');
  // the range's instants are fixed when it is picked, so polling asks for the same page
  const [rangeParams, setRangeParams] = useState<Record<string, string>>({});
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(PAGE_SIZES[0]!);
  const [active, setActive] = useState(false);
  const params: Record<string, string> = {
    _start: String(page * rowsPerPage),
    _end: String((page + 1) * rowsPerPage),
    _order: 'DESC',
  };
  if (status) params.status = status;
  Object.assign(params, rangeParams);
  if (pipelineId) params.pipelineId = pipelineId;
  const { data, error, isLoading, isFetching, refetch } = useRunsQuery(params, {
    pollingInterval: active ? RUN_LIST_POLL_MS : 0,
  });
  const anyActive = Boolean(data?.rows.some((r) => ACTIVE_STATUSES.includes(r.status)));
  if (anyActive !== active) setActive(anyActive);
  const { data: pipelines } = usePipelinesQuery({ _start: '0', _end: '500' }, { skip: Boolean(pipelineId) });
  const pipelineName = (id: string) => pipelines?.rows.find((p) => p.id === id)?.name ?? id;

  let body;
  if (isLoading) body = <Skeleton lines={6} />;
  else if (!data)
    body = (
      <LoadError
        what={t('pipelines.runsLoadError')}
        error={error}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  else if (data.total === 0)
    body = <EmptyState title={status || range ? t('pipelines.noRunsFiltered') : t('pipelines.noRuns')} />;
  else
    body = (
      <>
        <TableContainer>
          <Table size="small" aria-label={t('pipelines.runsTitle')}>
            <TableHead>
              <TableRow>
                {(['run', 'pipeline', 'status', 'started', 'duration'] as const).map((c) => (
                  <TableCell key={c}>{t(`pipelines.columns.${c}`)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {data.rows.map((r) => (
                <TableRow
                  key={r.id}
                  hover
                  data-testid="run-row"
                  sx={{ cursor: 'pointer' }}
                  onClick={() => void navigate(`/pipelines/runs/${r.id}`)}
                >
                  <TableCell>
                    <Link
                      component={RouterLink}
                      to={`/pipelines/runs/${r.id}`}
                      onClick={(e) => e.stopPropagation()}
                    >
                      {r.name} #{r.number}
                    </Link>
                  </TableCell>
                  <TableCell>{pipelineName(r.pipelineId)}</TableCell>
                  <TableCell>
                    <StatusChip status={r.status} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {formatTime(r.startedAt, i18n.language)}
                  </TableCell>
                  <TableCell>{durationOf(r.startedAt, r.finishedAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
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
    <Section
      id="pipeline-runs-title"
      title={t('pipelines.runsTitle')}
      action={
        <Stack direction="row" spacing={1}>
          <TextField
            select
            size="small"
            label={t('pipelines.statusFilter')}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              setPage(0);
            }}
            sx={{ minWidth: 180 }}
          >
            <MenuItem value="">{t('pipelines.allStatuses')}</MenuItem>
            {RUN_FILTERS.map(([key, value]) => (
              <MenuItem key={key} value={value}>
                {t(`pipelines.filters.${key}`)}
              </MenuItem>
            ))}
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
              setPage(0);
            }}
            sx={{ minWidth: 180 }}
          >
            <MenuItem value="">{t('studio.dateRange.all')}</MenuItem>
            {DATE_RANGE_PRESETS.map((p) => (
              <MenuItem key={p} value={p}>
                {t(`studio.dateRange.${p}`)}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      }
    >
      {body}
    </Section>
  );
}
