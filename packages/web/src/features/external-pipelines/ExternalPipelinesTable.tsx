import MoreVert from '@mui/icons-material/MoreVert';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { ExternalPipeline } from '@slipway/contracts';
import { DataTable, type Column, type TableStates } from '../../ui/DataTable';

export type ExternalPipelineAction = 'sync' | 'edit' | 'delete';

/**
 * External pipelines as rows: the name opens the pipeline's page (where it runs), the source and
 * revision, the version, when it was last synced and why the last sync failed, if it did.
 */
export function ExternalPipelinesTable({
  pipelines,
  states,
  allowed,
  syncing,
  onAction,
}: {
  pipelines: ExternalPipeline[] | undefined;
  /** The list's loading, error and empty states and its pager. */
  states?: TableStates;
  allowed: (action: ExternalPipelineAction) => boolean;
  /** the id of the pipeline being synced now */
  syncing: string | null;
  onAction: (action: ExternalPipelineAction, pipeline: ExternalPipeline) => void;
}) {
  const { t, i18n } = useTranslation();
  const [menu, setMenu] = useState<{ anchor: HTMLElement; pipeline: ExternalPipeline } | null>(null);
  const when = (at: string | null) =>
    at ? new Date(at).toLocaleString(i18n.language) : t('externalPipelines.never');
  const choose = (action: ExternalPipelineAction) => {
    if (menu) onAction(action, menu.pipeline);
    setMenu(null);
  };
  const columns: Column<ExternalPipeline>[] = [
    {
      id: 'name',
      header: t('externalPipelines.columns.name'),
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
      cell: (p) => (
        <>
          <Typography variant="body2">{p.source.url}</Typography>
          <Typography variant="caption" color="text.secondary">
            {p.source.path}
          </Typography>
        </>
      ),
    },
    { id: 'revision', header: t('externalPipelines.columns.revision'), cell: (p) => p.source.revision },
    { id: 'version', header: t('externalPipelines.columns.version'), cell: (p) => p.version },
    {
      id: 'lastSynced',
      header: t('externalPipelines.columns.lastSynced'),
      cell: (p) => when(p.lastSyncedAt),
      sx: { whiteSpace: 'nowrap' },
    },
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
    {
      id: 'actions',
      header: t('common.actions'),
      align: 'end',
      cell: (p) => (
        <IconButton
          aria-label={t('externalPipelines.actionsFor', { name: p.name })}
          onClick={(e) => setMenu({ anchor: e.currentTarget, pipeline: p })}
        >
          <MoreVert />
        </IconButton>
      ),
    },
  ];
  return (
    <DataTable
      aria-label={t('externalPipelines.title')}
      columns={columns}
      rows={pipelines}
      getRowId={(p) => p.id}
      rowTestId="external-pipeline-row"
      {...states}
    >
      <Menu anchorEl={menu?.anchor} open={Boolean(menu)} onClose={() => setMenu(null)}>
        <MenuItem disabled={!allowed('sync')} onClick={() => choose('sync')}>
          {t('externalPipelines.syncNow')}
        </MenuItem>
        <MenuItem disabled={!allowed('edit')} onClick={() => choose('edit')}>
          {t('common.edit')}
        </MenuItem>
        <MenuItem disabled={!allowed('delete')} onClick={() => choose('delete')}>
          {t('common.delete')}
        </MenuItem>
      </Menu>
    </DataTable>
  );
}
