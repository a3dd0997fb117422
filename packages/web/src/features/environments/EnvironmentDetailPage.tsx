import ArrowBack from '@mui/icons-material/ArrowBack';
import RocketLaunch from '@mui/icons-material/RocketLaunch';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { LoadError } from '../../ui/LoadError';
import { Section } from '../../ui/Section';
import { Skeleton } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { ClusterStatusChip } from '../clusters/ClusterStatusChip';
import { formatAt } from '../clusters/format';
import { useEnvironmentQuery } from './api';
import { HealthChip } from './HealthChip';

/** One environment: its cluster and namespace, and each deployed application's health. */
export default function EnvironmentDetailPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const {
    data: env,
    error,
    isLoading,
    isFetching,
    refetch,
  } = useEnvironmentQuery(id, { pollingInterval: 15_000 });
  useDocumentTitle(env?.name ?? t('environments.title'));
  if (isLoading) return <Skeleton lines={6} />;
  if (!env)
    return (
      <LoadError
        what={t('environments.detail.loadError')}
        error={error}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  return (
    <Box data-testid="environment-page" sx={{ maxWidth: 1200 }}>
      <Link
        component={RouterLink}
        to="/environments"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 1 }}
      >
        <ArrowBack fontSize="small" /> {t('environments.title')}
      </Link>
      <Stack direction="row" spacing={1.5} alignItems="center" sx={{ mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1">
          {env.name}
        </Typography>
        <Typography color="text.secondary">{t(`environments.types.${env.type}`)}</Typography>
      </Stack>
      <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 3 }}>
        {env.clusterId && env.clusterName ? (
          <>
            <Link component={RouterLink} to={`/clusters/${env.clusterId}`}>
              {env.clusterName}
            </Link>
            {env.clusterStatus ? <ClusterStatusChip status={env.clusterStatus} /> : null}
            <Typography color="text.secondary">/ {env.namespace}</Typography>
          </>
        ) : (
          <Typography color="text.secondary">{t('environments.noCluster')}</Typography>
        )}
      </Stack>
      {env.description ? <Typography sx={{ mb: 3 }}>{env.description}</Typography> : null}
      <Section id="deployments-title" title={t('environments.detail.deployments')}>
        {env.deployments.length === 0 ? (
          <EmptyState icon={RocketLaunch} title={t('environments.detail.noDeployments')}>
            {t('environments.detail.noDeploymentsBody')}
          </EmptyState>
        ) : (
          <Table size="small" aria-labelledby="deployments-title">
            <TableHead>
              <TableRow>
                <TableCell>{t('environments.detail.application')}</TableCell>
                <TableCell>{t('environments.detail.image')}</TableCell>
                <TableCell>{t('environments.detail.health')}</TableCell>
                <TableCell>{t('environments.detail.deployedAt')}</TableCell>
                <TableCell>{t('environments.detail.checkedAt')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {env.deployments.map((d) => (
                <TableRow key={d.id} data-testid="deployment-row">
                  <TableCell>
                    {d.name}
                    <Typography variant="caption" color="text.secondary" component="div">
                      {d.namespace}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{d.image ?? '—'}</TableCell>
                  <TableCell title={d.healthMessage ?? undefined}>
                    <HealthChip health={d.health} />
                  </TableCell>
                  <TableCell>
                    {d.runId ? (
                      <Link component={RouterLink} to={`/pipelines/runs/${d.runId}`}>
                        {formatAt(d.deployedAt, i18n.language)}
                      </Link>
                    ) : (
                      formatAt(d.deployedAt, i18n.language)
                    )}
                  </TableCell>
                  <TableCell>{formatAt(d.healthCheckedAt, i18n.language)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Section>
    </Box>
  );
}
