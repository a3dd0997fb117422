import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Close from '@mui/icons-material/Close';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../ui/LoadError';
import { Skeleton } from '../../ui/Skeleton';
import { usePermission } from '../access/usePermission';
import { useClusterResourceQuery } from './api';
import { PodLogs } from './PodLogs';

const PodTerminal = lazy(() => import('./PodTerminal'));

export interface ResourceRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string | null;
}

/** One object of the cluster: its YAML; for a Pod, its logs and a terminal as well. */
export function ResourceDialog({
  clusterId,
  target,
  onClose,
}: {
  clusterId: string;
  target: ResourceRef;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'yaml' | 'logs' | 'terminal'>('yaml');
  const { allowed: mayExec } = usePermission('clusters:execute');
  const { data, error, isLoading, isFetching, refetch } = useClusterResourceQuery({
    id: clusterId,
    apiVersion: target.apiVersion,
    kind: target.kind,
    name: target.name,
    ...(target.namespace ? { namespace: target.namespace } : {}),
  });
  const isPod = target.kind === 'Pod' && target.apiVersion === 'v1' && target.namespace;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="lg" aria-labelledby="resource-dialog-title">
      <DialogTitle id="resource-dialog-title" sx={{ display: 'flex', alignItems: 'center' }}>
        <span style={{ flex: 1 }}>
          {target.kind} {target.namespace ? `${target.namespace}/` : ''}
          {target.name}
        </span>
        <IconButton aria-label={t('common.cancel')} onClick={onClose}>
          <Close />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        {isPod ? (
          <Tabs value={tab} onChange={(_e, v: typeof tab) => setTab(v)} sx={{ mb: 2 }}>
            <Tab value="yaml" label={t('clusters.browser.yaml')} />
            <Tab value="logs" label={t('clusters.browser.logs')} />
            {mayExec ? <Tab value="terminal" label={t('clusters.browser.terminal')} /> : null}
          </Tabs>
        ) : null}
        {tab === 'yaml' ? (
          isLoading ? (
            <Skeleton lines={10} />
          ) : data ? (
            <Box
              component="pre"
              data-testid="resource-yaml"
              sx={{
                m: 0,
                p: 1.5,
                maxHeight: 520,
                overflow: 'auto',
                bgcolor: 'action.hover',
                fontSize: 13,
                borderRadius: 1,
              }}
            >
              {data.yaml}
            </Box>
          ) : (
            <LoadError
              what={t('clusters.browser.objectError')}
              error={error}
              onRetry={() => void refetch()}
              retrying={isFetching}
            />
          )
        ) : null}
        {tab === 'logs' && isPod ? (
          <PodLogs clusterId={clusterId} namespace={target.namespace!} pod={target.name} />
        ) : null}
        {tab === 'terminal' && isPod ? (
          <Suspense fallback={<Skeleton lines={6} />}>
            <PodTerminal clusterId={clusterId} namespace={target.namespace!} pod={target.name} />
          </Suspense>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
