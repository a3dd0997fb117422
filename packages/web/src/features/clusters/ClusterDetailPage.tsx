import LinkOff from '@mui/icons-material/LinkOff';
import Replay from '@mui/icons-material/Replay';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { MESSAGES } from '@slipway/contracts';
import { errorMessage } from '../../ui/api-error';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { BackLink } from '../../ui/BackLink';
import { QueryPending } from '../../ui/QueryPending';
import { Section } from '../../ui/Section';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { PermissionButton } from '../access/Can';
import { useClusterQuery, useDetachClusterMutation } from './api';
import { AttachClusterDialog } from './AttachClusterDialog';
import { ClusterAddOns, ClusterFacts, ClusterStorage } from './ClusterFacts';
import { ClusterResources } from './ClusterResources';
import { ClusterStatusChip } from './ClusterStatusChip';
import { NamespacePicker } from './NamespacePicker';

/** One cluster: its agent's status and facts, add-ons, storage, namespaces for logs, detach. */
export default function ClusterDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const query = useClusterQuery(id, { pollingInterval: 30_000 });
  const cluster = query.data;
  useDocumentTitle(cluster?.name ?? t('clusters.title'));
  const [confirming, setConfirming] = useState(false);
  const [attaching, setAttaching] = useState(false);
  const [detach, detaching] = useDetachClusterMutation();

  if (!cluster) return <QueryPending query={query} what={t('clusters.detail.loadError')} lines={8} />;
  const detached = cluster.status === 'detached';
  return (
    <Box data-testid="cluster-page" sx={{ maxWidth: 1200 }}>
      <BackLink to="/clusters">{t('clusters.detail.back')}</BackLink>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 3, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1">
          {cluster.name}
        </Typography>
        <ClusterStatusChip status={cluster.status} />
        <Stack direction="row" spacing={1} sx={{ ml: 'auto' }}>
          {cluster.status !== 'active' ? (
            <PermissionButton
              permission="clusters:edit"
              variant="outlined"
              startIcon={<Replay />}
              onClick={() => setAttaching(true)}
            >
              {t('clusters.wait.attachAgain')}
            </PermissionButton>
          ) : null}
          {!detached ? (
            <PermissionButton
              permission="clusters:delete"
              color="error"
              variant="outlined"
              startIcon={<LinkOff />}
              onClick={() => setConfirming(true)}
            >
              {t('clusters.detail.detach')}
            </PermissionButton>
          ) : null}
        </Stack>
      </Box>
      {cluster.status === 'not_active' ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {MESSAGES.agentNotActive}
        </Alert>
      ) : null}
      {cluster.status === 'creation_failed' ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {MESSAGES.clusterCreationFailed}
        </Alert>
      ) : null}
      <Stack spacing={3}>
        <ClusterFacts cluster={cluster} />
        <ClusterAddOns cluster={cluster} />
        <ClusterStorage cluster={cluster} />
        {cluster.status === 'active' ? <ClusterResources cluster={cluster} /> : null}
        <Section id="cluster-log-namespaces-title" title={t('clusters.detail.logNamespaces')}>
          <NamespacePicker cluster={cluster} submitLabel={t('clusters.detail.saveNamespaces')} />
        </Section>
      </Stack>
      <ConfirmDialog
        open={confirming}
        title={t('clusters.detail.detachTitle')}
        body={t('clusters.detail.detachBody')}
        confirmLabel={t('clusters.detail.detach')}
        loading={detaching.isLoading}
        error={detaching.error ? errorMessage(detaching.error) : null}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          void detach(cluster.id).then((answer) => {
            if (!answer.error) setConfirming(false);
          })
        }
      />
      {attaching ? <AttachClusterDialog reattachId={cluster.id} onClose={() => setAttaching(false)} /> : null}
    </Box>
  );
}
