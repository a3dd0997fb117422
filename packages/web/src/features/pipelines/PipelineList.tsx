import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Link from '@mui/material/Link';
import type { ElementType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { ListPager, usePaging } from '../../ui/ListPager';
import { ListStates } from '../../ui/ListStates';
import { Section } from '../../ui/Section';
import { usePipelinesQuery } from './api';
import { formatTime } from './format';

const PAGE_SIZE = 10;

/** The workspace's pipelines: name, current version and last change; a row opens the pipeline. */
export function PipelineList({ icon }: { icon?: ElementType }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const paging = usePaging([PAGE_SIZE]);
  const list = usePipelinesQuery(paging.range);
  const body = (
    <ListStates
      query={list}
      lines={4}
      what={t('pipelines.loadError')}
      empty={
        <EmptyState icon={icon} title={t('pipelines.noPipelines')}>
          {t('pipelines.noPipelinesBody')}
        </EmptyState>
      }
    >
      {(data) => (
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
          {data.total > PAGE_SIZE ? <ListPager paging={paging} count={data.total} /> : null}
        </>
      )}
    </ListStates>
  );
  return (
    <Section id="pipelines-list-title" title={t('pipelines.listTitle')}>
      {body}
    </Section>
  );
}
