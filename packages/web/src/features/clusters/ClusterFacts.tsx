import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { addOnName, type Cluster } from '@slipway/contracts';
import type { Column } from '../../ui/DataTable';
import { TableSection } from '../../ui/TableSection';
import { Section } from '../../ui/Section';
import { formatAt, orDash } from './format';

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Box sx={{ minWidth: 160 }}>
      <Typography variant="caption" color="text.secondary" component="dt">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0 }} data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}

/** What the agent reports: version, nodes, vCPU, agent version, heartbeat, namespaces. */
export function ClusterFacts({ cluster }: { cluster: Cluster }) {
  const { t, i18n } = useTranslation();
  return (
    <Section id="cluster-facts-title" title={t('clusters.detail.facts')}>
      <Stack component="dl" direction="row" useFlexGap spacing={3} sx={{ flexWrap: 'wrap', m: 0 }}>
        <Fact
          label={t('clusters.detail.version')}
          value={orDash(cluster.kubernetesVersion)}
          testId="fact-version"
        />
        <Fact label={t('clusters.detail.nodes')} value={orDash(cluster.nodeCount)} testId="fact-nodes" />
        <Fact label={t('clusters.detail.vcpu')} value={orDash(cluster.totalVcpu)} testId="fact-vcpu" />
        <Fact
          label={t('clusters.detail.agentVersion')}
          value={orDash(cluster.agentVersion)}
          testId="fact-agent"
        />
        <Fact
          label={t('clusters.detail.lastHeartbeat')}
          value={formatAt(cluster.lastHeartbeatAt, i18n.language, t('clusters.detail.never'))}
          testId="fact-heartbeat"
        />
        <Fact label={t('clusters.columns.type')} value={t(`clusters.types.${cluster.type}`)} />
        <Fact label={t('clusters.detail.registry')} value={orDash(cluster.publicRegistryPrefix)} />
        <Fact
          label={t('clusters.detail.agentPermission')}
          value={
            cluster.limitedAgentPermission
              ? t('clusters.detail.limitedTo', { namespaces: cluster.allowedNamespaces.join(', ') })
              : t('clusters.detail.fullAccess')
          }
        />
      </Stack>
      <Typography variant="subtitle2" component="h3" sx={{ mt: 3, mb: 1 }}>
        {t('clusters.detail.namespaces')}
      </Typography>
      {cluster.namespaces.length === 0 ? (
        <Typography color="text.secondary">{t('clusters.detail.noNamespaces')}</Typography>
      ) : (
        <Stack
          direction="row"
          useFlexGap
          spacing={1}
          sx={{ flexWrap: 'wrap' }}
          data-testid="cluster-namespaces"
        >
          {cluster.namespaces.map((ns) => (
            <Chip key={ns} size="small" label={ns} variant="outlined" />
          ))}
        </Stack>
      )}
    </Section>
  );
}

/** Installed add-ons, by the catalogue's names. */
export function ClusterAddOns({ cluster }: { cluster: Cluster }) {
  const { t } = useTranslation();
  return (
    <Section id="cluster-addons-title" title={t('clusters.detail.addOns')}>
      {cluster.installedResources.length === 0 ? (
        <Typography color="text.secondary">{t('clusters.detail.noAddOns')}</Typography>
      ) : (
        <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap' }} data-testid="cluster-addons">
          {cluster.installedResources.map((id) => (
            <Chip key={id} label={addOnName(id)} color="primary" variant="outlined" />
          ))}
        </Stack>
      )}
    </Section>
  );
}

/** Storage options: each storage class's provisioner, reclaim policy and binding mode. */
export function ClusterStorage({ cluster }: { cluster: Cluster }) {
  const { t } = useTranslation();
  const storageColumns: Column<Cluster['storageOptions'][number]>[] = [
    {
      id: 'name',
      header: t('clusters.detail.storageName'),
      cell: (s) => (
        <>
          {s.name}
          {s.default ? <Chip size="small" label={t('clusters.detail.isDefault')} sx={{ ml: 1 }} /> : null}
        </>
      ),
    },
    { id: 'provisioner', header: t('clusters.detail.provisioner'), cell: (s) => s.provisioner },
    { id: 'reclaimPolicy', header: t('clusters.detail.reclaimPolicy'), cell: (s) => s.reclaimPolicy },
    { id: 'bindingMode', header: t('clusters.detail.bindingMode'), cell: (s) => s.bindingMode },
  ];
  return (
    <TableSection
      id="cluster-storage-title"
      title={t('clusters.detail.storage')}
      columns={storageColumns}
      rows={cluster.storageOptions}
      getRowId={(s) => s.name}
      rowTestId="storage-row"
      empty={<Typography color="text.secondary">{t('clusters.detail.noStorage')}</Typography>}
    />
  );
}
