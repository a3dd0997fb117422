import Article from '@mui/icons-material/Article';
import Dns from '@mui/icons-material/Dns';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApplicationDetail, ClusterResourceSummary } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { DataTable, type Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { LoadError } from '../../ui/LoadError';
import { Section } from '../../ui/Section';
import { usePermission } from '../access/usePermission';
import { useClusterResourcesQuery } from '../clusters/api';
import { formatAt } from '../clusters/format';
import { PodLogs } from '../clusters/PodLogs';
import { useEnvironmentQuery } from '../environments/api';

/** The label quick setup's manifests (and the deploy task's records) give an application's objects. */
export const APP_LABEL = 'app.kubernetes.io/name';

type Pod = ClusterResourceSummary;

/**
 * The application's pods in each environment bound to a cluster, read through the cluster's agent
 * by its `app.kubernetes.io/name` label, each with its log (the last lines, or followed live).
 * Shown to those who may view clusters.
 */
export function ApplicationPods({ app }: { app: ApplicationDetail }) {
  const { t } = useTranslation();
  const { allowed } = usePermission('clusters:view');
  if (!allowed) return null;
  return (
    <Section id="application-pods-title" title={t('applications.pods.title')}>
      {app.environments.length === 0 ? (
        <Typography color="text.secondary">{t('applications.pods.noEnvironments')}</Typography>
      ) : (
        <Stack spacing={3}>
          {app.environments.map((e) => (
            <EnvironmentPods key={e.environmentId} environmentId={e.environmentId} app={app} />
          ))}
        </Stack>
      )}
    </Section>
  );
}

function EnvironmentPods({ environmentId, app }: { environmentId: string; app: ApplicationDetail }) {
  const { t, i18n } = useTranslation();
  const env = useEnvironmentQuery(environmentId);
  const e = env.data;
  const clusterId = e?.clusterId ?? '';
  // where its last deployment put it; before one, the application's own namespace
  const namespace = e?.deployments.find((d) => d.name === app.name)?.namespace ?? app.namespace;
  const pods = useClusterResourcesQuery(
    { id: clusterId, apiVersion: 'v1', kind: 'Pod', namespace, labelSelector: `${APP_LABEL}=${app.name}` },
    { skip: !clusterId, pollingInterval: 15_000 },
  );
  const [open, setOpen] = useState<Pod | null>(null);

  const columns: Column<Pod>[] = [
    { id: 'name', header: t('applications.pods.pod'), cell: (p) => p.name, sx: { overflowWrap: 'anywhere' } },
    { id: 'status', header: t('applications.pods.status'), cell: (p) => p.status ?? '—' },
    {
      id: 'createdAt',
      header: t('applications.pods.created'),
      hideBelow: 'sm',
      cell: (p) => formatAt(p.createdAt, i18n.language),
    },
    {
      id: 'logs',
      header: t('applications.pods.logs'),
      cell: (p) => (
        <Button
          size="small"
          startIcon={<Article />}
          onClick={() => setOpen(p)}
          aria-label={t('applications.pods.logsOf', { pod: p.name })}
        >
          {t('applications.pods.logs')}
        </Button>
      ),
    },
  ];

  let body;
  if (env.isLoading) body = <Skeleton variant="rounded" height={48} />;
  else if (env.isError || !e)
    body = <LoadError what={t('applications.pods.loadError')} error={env.error} onRetry={env.refetch} />;
  else if (!clusterId)
    body = <Typography color="text.secondary">{t('applications.pods.noCluster')}</Typography>;
  else if (pods.isError)
    body = <LoadError what={t('applications.pods.loadError')} error={pods.error} onRetry={pods.refetch} />;
  else if (!pods.data) body = <Skeleton variant="rounded" height={48} />;
  else
    body = (
      <DataTable
        aria-label={t('applications.pods.of', { environment: e.name })}
        columns={columns}
        rows={pods.data}
        getRowId={(p) => p.name}
        rowTestId="application-pod-row"
        empty={
          <EmptyState icon={Dns} title={t('applications.pods.none')}>
            {t('applications.pods.noneBody', { namespace, label: `${APP_LABEL}=${app.name}` })}
          </EmptyState>
        }
      />
    );

  return (
    <div data-testid="application-pods">
      <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
        {e?.clusterName
          ? t('applications.pods.where', { environment: e.name, cluster: e.clusterName, namespace })
          : (e?.name ?? '')}
      </Typography>
      {body}
      <Dialog open={Boolean(open)} onClose={() => setOpen(null)} fullWidth maxWidth="lg">
        <DialogTitle>{open ? t('applications.pods.logsOf', { pod: open.name }) : ''}</DialogTitle>
        <DialogContent>
          {open && clusterId ? <PodLogs clusterId={clusterId} namespace={namespace} pod={open.name} /> : null}
        </DialogContent>
      </Dialog>
    </div>
  );
}
