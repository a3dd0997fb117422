import RocketLaunch from '@mui/icons-material/RocketLaunch';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import type { Deployment } from '@slipway/contracts';
import type { Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { BackLink } from '../../ui/BackLink';
import { QueryPending } from '../../ui/QueryPending';
import { TableSection } from '../../ui/TableSection';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { ClusterStatusChip } from '../clusters/ClusterStatusChip';
import { formatAt } from '../clusters/format';
import { useEnvironmentQuery } from './api';
import { HealthChip } from './HealthChip';

/** One environment: its cluster and namespace, and each deployed application's health. */
export default function EnvironmentDetailPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const query = useEnvironmentQuery(id, { pollingInterval: 15_000 });
  const env = query.data;
  useDocumentTitle(env?.name ?? t('environments.title'));
  const deploymentColumns: Column<Deployment>[] = [
    {
      id: 'application',
      header: t('environments.detail.application'),
      cell: (d) => (
        <>
          {d.name}
          <Typography variant="caption" color="text.secondary" component="div">
            {d.namespace}
          </Typography>
        </>
      ),
    },
    {
      id: 'image',
      header: t('environments.detail.image'),
      cell: (d) => d.image ?? '—',
      sx: { fontFamily: 'monospace' },
    },
    {
      id: 'health',
      header: t('environments.detail.health'),
      cell: (d) => (
        <span title={d.healthMessage ?? undefined}>
          <HealthChip health={d.health} />
        </span>
      ),
    },
    {
      id: 'deployedAt',
      header: t('environments.detail.deployedAt'),
      cell: (d) =>
        d.runId ? (
          <Link component={RouterLink} to={`/pipelines/runs/${d.runId}`}>
            {formatAt(d.deployedAt, i18n.language)}
          </Link>
        ) : (
          formatAt(d.deployedAt, i18n.language)
        ),
    },
    {
      id: 'checkedAt',
      header: t('environments.detail.checkedAt'),
      cell: (d) => formatAt(d.healthCheckedAt, i18n.language),
    },
  ];
  if (!env) return <QueryPending query={query} what={t('environments.detail.loadError')} />;
  return (
    <Box data-testid="environment-page" sx={{ maxWidth: 1200 }}>
      <BackLink to="/environments">{t('environments.title')}</BackLink>
      <Stack direction="row" spacing={1.5} alignItems="center" sx={{ mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1">
          {env.name}
        </Typography>
        <Typography color="text.secondary">{t(`environments.types.${env.type}`)}</Typography>
      </Stack>
      <Stack direction="row" spacing={1} alignItems="center" useFlexGap sx={{ mb: 3, flexWrap: 'wrap' }}>
        {env.clusterId && env.clusterName ? (
          <>
            <Link component={RouterLink} to={`/clusters/${env.clusterId}`}>
              {env.clusterName}
            </Link>
            {env.clusterStatus ? <ClusterStatusChip status={env.clusterStatus} /> : null}
            <Typography color="text.secondary">/ {env.namespace}</Typography>
            <Typography color="text.secondary" data-testid="task-runner">
              · {t(`environments.taskRunners.${env.taskRunner}`)}
            </Typography>
          </>
        ) : (
          <Typography color="text.secondary">{t('environments.noCluster')}</Typography>
        )}
      </Stack>
      {env.description ? <Typography sx={{ mb: 3 }}>{env.description}</Typography> : null}
      <TableSection
        id="deployments-title"
        title={t('environments.detail.deployments')}
        columns={deploymentColumns}
        rows={env.deployments}
        getRowId={(d) => d.id}
        rowTestId="deployment-row"
        empty={
          <EmptyState icon={RocketLaunch} title={t('environments.detail.noDeployments')}>
            {t('environments.detail.noDeploymentsBody')}
          </EmptyState>
        }
      />
    </Box>
  );
}
