import Autocomplete from '@mui/material/Autocomplete';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Cluster, ClusterResourceKind, ClusterResourceSummary } from '@slipway/contracts';
import { DataTable, type Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { LoadError } from '../../ui/LoadError';
import { Section } from '../../ui/Section';
import { Skeleton } from '../../ui/Skeleton';
import { useClusterKindsQuery, useClusterResourcesQuery } from './api';
import { formatAt } from './format';
import { ResourceDialog, type ResourceRef } from './ResourceDialog';

const ALL = '';
const label = (k: ClusterResourceKind) => `${k.kind} (${k.apiVersion})`;

/**
 * The resources browser: any kind the cluster serves, in any namespace its agent may see, each
 * object's YAML, and for pods their logs and a terminal — all through the agent.
 */
export function ClusterResources({ cluster }: { cluster: Cluster }) {
  const { t, i18n } = useTranslation();
  const kinds = useClusterKindsQuery(cluster.id);
  const [kind, setKind] = useState<ClusterResourceKind | null>(null);
  const namespaces = cluster.limitedAgentPermission ? cluster.allowedNamespaces : cluster.namespaces;
  const [namespace, setNamespace] = useState(cluster.limitedAgentPermission ? (namespaces[0] ?? ALL) : ALL);
  const [open, setOpen] = useState<ResourceRef | null>(null);
  const chosen = useMemo(
    () => kind ?? kinds.data?.find((k) => k.apiVersion === 'v1' && k.kind === 'Pod') ?? null,
    [kind, kinds.data],
  );
  const list = useClusterResourcesQuery(
    {
      id: cluster.id,
      apiVersion: chosen?.apiVersion ?? '',
      kind: chosen?.kind ?? '',
      ...(chosen?.namespaced && namespace ? { namespace } : {}),
    },
    { skip: !chosen },
  );

  const columns: Column<ClusterResourceSummary>[] = [
    { id: 'name', header: t('clusters.columns.name'), cell: (r) => r.name },
    ...(chosen?.namespaced
      ? [
          {
            id: 'namespace',
            header: t('clusters.browser.namespace'),
            cell: (r: ClusterResourceSummary) => r.namespace,
          },
        ]
      : []),
    { id: 'status', header: t('clusters.columns.status'), cell: (r) => r.status ?? '—' },
    {
      id: 'created',
      header: t('clusters.browser.created'),
      cell: (r) => formatAt(r.createdAt, i18n.language),
    },
  ];

  let body;
  if (kinds.isLoading || list.isLoading) body = <Skeleton lines={5} />;
  else if (!kinds.data)
    body = (
      <LoadError
        what={t('clusters.browser.kindsError')}
        error={kinds.error}
        onRetry={() => void kinds.refetch()}
        retrying={kinds.isFetching}
      />
    );
  else if (!list.data)
    body = list.error ? (
      <LoadError
        what={t('clusters.browser.listError')}
        error={list.error}
        onRetry={() => void list.refetch()}
        retrying={list.isFetching}
      />
    ) : null;
  else if (list.data.length === 0)
    body = <EmptyState title={t('clusters.browser.empty', { kind: chosen?.kind ?? '' })} />;
  else
    body = (
      <DataTable
        aria-label={t('clusters.browser.title')}
        columns={columns}
        rows={list.data}
        getRowId={(r) => `${r.namespace ?? ''}/${r.name}`}
        rowTestId="resource-row"
        onRowOpen={(r) =>
          setOpen({
            apiVersion: chosen!.apiVersion,
            kind: chosen!.kind,
            name: r.name,
            namespace: r.namespace,
          })
        }
      />
    );

  return (
    <Section id="cluster-resources-title" title={t('clusters.browser.title')}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <Autocomplete
          sx={{ minWidth: 320 }}
          options={kinds.data ?? []}
          value={chosen}
          getOptionLabel={label}
          isOptionEqualToValue={(a, b) => a.apiVersion === b.apiVersion && a.kind === b.kind}
          onChange={(_e, v) => setKind(v)}
          renderInput={(params) => <TextField {...params} label={t('clusters.browser.kind')} />}
        />
        <TextField
          select
          sx={{ minWidth: 220 }}
          label={t('clusters.browser.namespace')}
          value={namespace}
          disabled={!chosen?.namespaced}
          onChange={(e) => setNamespace(e.target.value)}
        >
          {cluster.limitedAgentPermission ? null : (
            <MenuItem value={ALL}>{t('clusters.browser.allNamespaces')}</MenuItem>
          )}
          {namespaces.map((ns) => (
            <MenuItem key={ns} value={ns}>
              {ns}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {body}
      {list.data && list.data.length > 0 ? (
        <Typography variant="caption" color="text.secondary">
          {t('clusters.browser.count', { count: list.data.length })}
        </Typography>
      ) : null}
      {open ? <ResourceDialog clusterId={cluster.id} target={open} onClose={() => setOpen(null)} /> : null}
    </Section>
  );
}
