import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { ExternalPipeline } from '@slipway/contracts';
import { timeColumn } from '../../ui/columns';
import type { Column } from '../../ui/DataTable';
import { MenuTable, type RowActionProps, type RowMenuItem } from '../../ui/RowMenu';

export type ExternalPipelineAction = 'sync' | 'edit' | 'delete';

/**
 * External pipelines as rows: the name opens the pipeline's page (where it runs), the source and
 * revision, the version, when it was last synced and why the last sync failed, if it did. Sortable
 * by name, version and last sync; on a phone only the name, state and menu stay.
 */
export function ExternalPipelinesTable({
  pipelines,
  syncing,
  ...actions
}: RowActionProps<ExternalPipeline, ExternalPipelineAction> & {
  pipelines: ExternalPipeline[] | undefined;
  /** the id of the pipeline being synced now */
  syncing: string | null;
}) {
  const { t, i18n } = useTranslation();
  const items = (): RowMenuItem<ExternalPipelineAction>[] => [
    { action: 'sync', label: t('externalPipelines.syncNow'), disabled: !actions.allowed('sync') },
    { action: 'edit', label: t('common.edit'), disabled: !actions.allowed('edit') },
    { action: 'delete', label: t('common.delete'), disabled: !actions.allowed('delete') },
  ];
  const columns: Column<ExternalPipeline>[] = [
    {
      id: 'name',
      header: t('externalPipelines.columns.name'),
      sortKey: 'name',
      sx: { whiteSpace: 'nowrap' },
      cell: (p) => (
        <Link component={RouterLink} to={`/pipelines/${encodeURIComponent(p.id)}`}>
          {p.name}
        </Link>
      ),
    },
    {
      id: 'source',
      header: t('externalPipelines.columns.source'),
      sx: { overflowWrap: 'anywhere', maxWidth: 320 },
      hideBelow: 'sm',
      cell: (p) => (
        <>
          <Typography variant="body2">{p.source.url}</Typography>
          <Typography variant="caption" color="text.secondary">
            {p.source.path}
          </Typography>
        </>
      ),
    },
    {
      id: 'revision',
      header: t('externalPipelines.columns.revision'),
      cell: (p) => p.source.revision,
      hideBelow: 'md',
    },
    {
      id: 'version',
      header: t('externalPipelines.columns.version'),
      sortKey: 'version',
      cell: (p) => p.version,
      hideBelow: 'sm',
    },
    timeColumn<ExternalPipeline>(
      'lastSynced',
      t('externalPipelines.columns.lastSynced'),
      (p) => p.lastSyncedAt,
      i18n.language,
      { sortKey: 'lastSyncedAt', none: t('externalPipelines.never'), hideBelow: 'sm' },
    ),
    {
      id: 'state',
      header: t('externalPipelines.columns.state'),
      sx: { maxWidth: 360 },
      cell: (p) =>
        syncing === p.id ? (
          <Chip size="small" label={t('externalPipelines.syncing')} />
        ) : p.syncError ? (
          <>
            <Chip size="small" color="error" label={t('externalPipelines.syncFailed')} />
            <Typography
              variant="caption"
              color="error"
              component="p"
              data-testid="external-pipeline-sync-error"
              sx={{ overflowWrap: 'anywhere', mt: 0.5 }}
            >
              {p.syncError}
            </Typography>
          </>
        ) : (
          <Chip size="small" color="success" variant="outlined" label={t('externalPipelines.inSync')} />
        ),
    },
  ];
  return (
    <MenuTable<ExternalPipeline, ExternalPipelineAction>
      label={t('externalPipelines.title')}
      columns={columns}
      rows={pipelines}
      rowTestId="external-pipeline-row"
      items={items}
      menuLabel={(p) => t('externalPipelines.actionsFor', { name: p.name })}
      onAction={actions.onAction}
      states={actions.states}
    />
  );
}
