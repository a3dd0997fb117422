import MoreVert from '@mui/icons-material/MoreVert';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { ExternalPipeline } from '@slipway/contracts';

export type ExternalPipelineAction = 'sync' | 'edit' | 'delete';

const COLUMNS = ['name', 'source', 'revision', 'version', 'lastSynced', 'state'] as const;

/**
 * External pipelines as rows: the name opens the pipeline's page (where it runs), the source and
 * revision, the version, when it was last synced and why the last sync failed, if it did.
 */
export function ExternalPipelinesTable({
  pipelines,
  allowed,
  syncing,
  onAction,
}: {
  pipelines: ExternalPipeline[];
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
  return (
    <TableContainer>
      <Table size="small" aria-label={t('externalPipelines.title')}>
        <TableHead>
          <TableRow>
            {COLUMNS.map((c) => (
              <TableCell key={c}>{t(`externalPipelines.columns.${c}`)}</TableCell>
            ))}
            <TableCell align="right">{t('common.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {pipelines.map((p) => (
            <TableRow key={p.id} data-testid="external-pipeline-row">
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <Link component={RouterLink} to={`/pipelines/${encodeURIComponent(p.id)}`}>
                  {p.name}
                </Link>
              </TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere', maxWidth: 320 }}>
                <Typography variant="body2">{p.source.url}</Typography>
                <Typography variant="caption" color="text.secondary">
                  {p.source.path}
                </Typography>
              </TableCell>
              <TableCell>{p.source.revision}</TableCell>
              <TableCell>{p.version}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(p.lastSyncedAt)}</TableCell>
              <TableCell sx={{ maxWidth: 360 }}>
                {syncing === p.id ? (
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
                  <Chip
                    size="small"
                    color="success"
                    variant="outlined"
                    label={t('externalPipelines.inSync')}
                  />
                )}
              </TableCell>
              <TableCell align="right">
                <IconButton
                  aria-label={t('externalPipelines.actionsFor', { name: p.name })}
                  onClick={(e) => setMenu({ anchor: e.currentTarget, pipeline: p })}
                >
                  <MoreVert />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
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
    </TableContainer>
  );
}
