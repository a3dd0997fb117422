import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Link from '@mui/material/Link';
import type { ElementType } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { LoadError } from '../../ui/LoadError';
import { Section } from '../../ui/Section';
import { Skeleton } from '../../ui/Skeleton';
import { usePipelinesQuery } from './api';
import { formatTime } from './format';

const PAGE_SIZE = 10;

/** The workspace's pipelines: name, current version and last change; a row opens the pipeline. */
export function PipelineList({ icon }: { icon?: ElementType }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [page, setPage] = useState(0);
  const { data, error, isLoading, isFetching, refetch } = usePipelinesQuery({
    _start: String(page * PAGE_SIZE),
    _end: String((page + 1) * PAGE_SIZE),
  });
  let body;
  if (isLoading) body = <Skeleton lines={4} />;
  else if (!data)
    body = (
      <LoadError
        what={t('pipelines.loadError')}
        error={error}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  else if (data.total === 0)
    body = (
      <EmptyState icon={icon} title={t('pipelines.noPipelines')}>
        {t('pipelines.noPipelinesBody')}
      </EmptyState>
    );
  else
    body = (
      <>
        <TableContainer>
          <Table size="small" aria-label={t('pipelines.listTitle')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('pipelines.columns.name')}</TableCell>
                <TableCell>{t('pipelines.columns.version')}</TableCell>
                <TableCell>{t('pipelines.columns.updated')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.rows.map((p) => (
                <TableRow
                  key={p.id}
                  hover
                  data-testid="pipeline-row"
                  sx={{ cursor: 'pointer' }}
                  onClick={() => void navigate(`/pipelines/${p.id}`)}
                >
                  <TableCell>
                    <Link
                      component={RouterLink}
                      to={`/pipelines/${p.id}`}
                      onClick={(e) => e.stopPropagation()}
                    >
                      {p.name}
                    </Link>
                  </TableCell>
                  <TableCell>{p.version}</TableCell>
                  <TableCell>{formatTime(p.updatedAt, i18n.language)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        {data.total > PAGE_SIZE ? (
          <TablePagination
            component="div"
            count={data.total}
            page={page}
            rowsPerPage={PAGE_SIZE}
            rowsPerPageOptions={[PAGE_SIZE]}
            onPageChange={(_e, p) => setPage(p)}
          />
        ) : null}
      </>
    );
  return (
    <Section id="pipelines-list-title" title={t('pipelines.listTitle')}>
      {body}
    </Section>
  );
}
