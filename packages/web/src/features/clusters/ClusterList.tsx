import Hub from '@mui/icons-material/Hub';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { ListPager, usePaging } from '../../ui/ListPager';
import { ListStates } from '../../ui/ListStates';
import { Section } from '../../ui/Section';
import { useClustersQuery } from './api';
import { ClusterStatusChip } from './ClusterStatusChip';
import { formatAt, orDash } from './format';

const PAGE_SIZE = 10;

/** The workspace's clusters with their agent status and facts; a row opens the cluster. */
export function ClusterList({ emptyAction }: { emptyAction?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const paging = usePaging([PAGE_SIZE]);
  const list = useClustersQuery({ ...paging.range, _sort: 'name' }, { pollingInterval: 30_000 });
  const body = (
    <ListStates
      query={list}
      lines={4}
      what={t('clusters.loadError')}
      empty={
        <EmptyState icon={Hub} title={t('clusters.noClusters')} action={emptyAction}>
          {t('clusters.noClustersBody')}
        </EmptyState>
      }
    >
      {(data) => (
        <>
          <TableContainer>
            <Table size="small" aria-label={t('clusters.title')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('clusters.columns.name')}</TableCell>
                  <TableCell>{t('clusters.columns.type')}</TableCell>
                  <TableCell>{t('clusters.columns.status')}</TableCell>
                  <TableCell>{t('clusters.columns.version')}</TableCell>
                  <TableCell align="right">{t('clusters.columns.nodes')}</TableCell>
                  <TableCell align="right">{t('clusters.columns.vcpu')}</TableCell>
                  <TableCell>{t('clusters.columns.heartbeat')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.rows.map((c) => (
                  <TableRow
                    key={c.id}
                    hover
                    data-testid="cluster-row"
                    sx={{ cursor: 'pointer' }}
                    onClick={() => void navigate(`/clusters/${c.id}`)}
                  >
                    <TableCell>
                      <Link
                        component={RouterLink}
                        to={`/clusters/${c.id}`}
                        onClick={(e) => e.stopPropagation()}
                      >
                        {c.name}
                      </Link>
                    </TableCell>
                    <TableCell>{t(`clusters.types.${c.type}`)}</TableCell>
                    <TableCell>
                      <ClusterStatusChip status={c.status} />
                    </TableCell>
                    <TableCell>{orDash(c.kubernetesVersion)}</TableCell>
                    <TableCell align="right">{orDash(c.nodeCount)}</TableCell>
                    <TableCell align="right">{orDash(c.totalVcpu)}</TableCell>
                    <TableCell>
                      {formatAt(c.lastHeartbeatAt, i18n.language, t('clusters.detail.never'))}
                    </TableCell>
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
    <Section id="clusters-list-title" title={t('clusters.title')}>
      {body}
    </Section>
  );
}
