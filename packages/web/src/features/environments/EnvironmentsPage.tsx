import Add from '@mui/icons-material/Add';
import Delete from '@mui/icons-material/Delete';
import Edit from '@mui/icons-material/Edit';
import Layers from '@mui/icons-material/Layers';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Environment } from '@slipway/contracts';
import { errorMessage } from '../../app/api-error';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EmptyState } from '../../ui/EmptyState';
import { ListPager, usePaging } from '../../ui/ListPager';
import { ListStates } from '../../ui/ListStates';
import { Section } from '../../ui/Section';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { Can, PermissionButton } from '../access/Can';
import { ClusterStatusChip } from '../clusters/ClusterStatusChip';
import { useDeleteEnvironmentMutation, useEnvironmentsQuery } from './api';
import { EnvironmentDialog } from './EnvironmentDialog';

const PAGE_SIZE = 10;

/** Environments: where things are deployed, each a namespace on one of the workspace's clusters. */
export default function EnvironmentsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('environments.title'));
  const paging = usePaging([PAGE_SIZE]);
  const [editing, setEditing] = useState<Environment | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Environment | null>(null);
  const [remove, removing] = useDeleteEnvironmentMutation();
  const list = useEnvironmentsQuery({
    ...paging.range,
    _sort: 'createdAt',
  });

  const body = (
    <ListStates
      query={list}
      lines={4}
      what={t('environments.loadError')}
      empty={
        <EmptyState icon={Layers} title={t('environments.noEnvironments')}>
          {t('environments.noEnvironmentsBody')}
        </EmptyState>
      }
    >
      {(data) => (
        <>
          <TableContainer>
            <Table size="small" aria-label={t('environments.title')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('environments.columns.name')}</TableCell>
                  <TableCell>{t('environments.columns.type')}</TableCell>
                  <TableCell>{t('environments.columns.cluster')}</TableCell>
                  <TableCell>{t('environments.columns.namespace')}</TableCell>
                  <TableCell>{t('environments.columns.description')}</TableCell>
                  <TableCell align="right">{t('common.actions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.rows.map((e) => (
                  <TableRow key={e.id} data-testid="environment-row">
                    <TableCell>
                      <Link component={RouterLink} to={`/environments/${e.id}`}>
                        {e.name}
                      </Link>
                    </TableCell>
                    <TableCell>{t(`environments.types.${e.type}`)}</TableCell>
                    <TableCell>
                      {e.clusterId && e.clusterName ? (
                        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
                          <Link component={RouterLink} to={`/clusters/${e.clusterId}`}>
                            {e.clusterName}
                          </Link>
                          {e.clusterStatus ? <ClusterStatusChip status={e.clusterStatus} /> : null}
                        </Box>
                      ) : (
                        <Typography color="text.secondary" variant="body2">
                          {t('environments.noCluster')}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell>{e.namespace ?? '—'}</TableCell>
                    <TableCell>{e.description}</TableCell>
                    <TableCell align="right">
                      <Can permission="environments:edit">
                        {(allowed) => (
                          <IconButton
                            aria-label={`${t('common.edit')} ${e.name}`}
                            disabled={!allowed}
                            onClick={() => setEditing(e)}
                          >
                            <Edit fontSize="small" />
                          </IconButton>
                        )}
                      </Can>
                      <Can permission="environments:delete">
                        {(allowed) => (
                          <IconButton
                            aria-label={`${t('common.delete')} ${e.name}`}
                            disabled={!allowed}
                            onClick={() => setDeleting(e)}
                          >
                            <Delete fontSize="small" />
                          </IconButton>
                        )}
                      </Can>
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
    <Box data-testid="area-environments" sx={{ maxWidth: 1200 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 3, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1">
          {t('environments.title')}
        </Typography>
        <PermissionButton
          permission="environments:create"
          variant="contained"
          startIcon={<Add />}
          sx={{ ml: 'auto' }}
          onClick={() => setEditing('new')}
        >
          {t('environments.create')}
        </PermissionButton>
      </Box>
      <Section id="environments-list-title" title={t('environments.title')}>
        {body}
      </Section>
      {editing ? (
        <EnvironmentDialog
          environment={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('environments.deleteTitle', { name: deleting?.name ?? '' })}
        body={t('environments.deleteBody')}
        confirmLabel={t('common.delete')}
        loading={removing.isLoading}
        error={removing.error ? errorMessage(removing.error) : null}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          void remove(deleting!.id).then((answer) => {
            if (!answer.error) setDeleting(null);
          })
        }
      />
    </Box>
  );
}
