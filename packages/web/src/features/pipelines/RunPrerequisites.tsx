import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../access/usePermission';
import { useRunClustersQuery } from './api';

function Line({ ok, testId, children }: { ok: boolean; testId: string; children: ReactNode }) {
  return (
    <Box
      data-testid={testId}
      data-ok={ok ? 'true' : 'false'}
      sx={{ display: 'flex', gap: 1, alignItems: 'center' }}
    >
      {ok ? (
        <CheckCircle color="success" fontSize="small" />
      ) : (
        <ErrorOutline color="warning" fontSize="small" />
      )}
      <Typography variant="body2">{children}</Typography>
    </Box>
  );
}

/**
 * The initiate-run panel's prerequisites (spec: a sample cluster and a registry), said as they
 * are: the workspace's first active cluster and its registry prefix, or that none is attached
 * and the run goes to this server's local executor.
 */
export function RunPrerequisites() {
  const { t } = useTranslation();
  const { allowed, isLoading: checking } = usePermission('clusters:view');
  const { data, isLoading, isError } = useRunClustersQuery(undefined, { skip: checking || !allowed });
  let cluster: ReactNode;
  let registry: ReactNode;
  if (checking || isLoading) {
    cluster = (
      <Line ok={false} testId="prerequisite-cluster">
        {t('studio.prerequisites.checking')}
      </Line>
    );
    registry = null;
  } else if (!allowed || isError || !data) {
    cluster = (
      <Line ok={false} testId="prerequisite-cluster">
        {t('studio.prerequisites.clusterUnknown')}
      </Line>
    );
    registry = (
      <Line ok={false} testId="prerequisite-registry">
        {t('studio.prerequisites.registryUnknown')}
      </Line>
    );
  } else {
    const active = data.rows.find((c) => c.status === 'active');
    const any = active ?? data.rows[0];
    cluster = any ? (
      <Line ok={Boolean(active)} testId="prerequisite-cluster">
        {t(active ? 'studio.prerequisites.clusterActive' : 'studio.prerequisites.clusterNotActive', {
          name: any.name,
          status: t(`studio.prerequisites.clusterStatus.${any.status}`, { defaultValue: any.status }),
        })}
      </Line>
    ) : (
      <Line ok={false} testId="prerequisite-cluster">
        {t('studio.prerequisites.noCluster')}
      </Line>
    );
    const prefix = any?.publicRegistryPrefix;
    registry = (
      <Line ok={Boolean(prefix)} testId="prerequisite-registry">
        {prefix ? t('studio.prerequisites.registry', { prefix }) : t('studio.prerequisites.noRegistry')}
      </Line>
    );
  }
  return (
    <Stack spacing={0.5} component="section" aria-label={t('studio.prerequisites.title')}>
      <Typography variant="subtitle2" component="h3">
        {t('studio.prerequisites.title')}
      </Typography>
      {cluster}
      {registry}
    </Stack>
  );
}
