import MoreVert from '@mui/icons-material/MoreVert';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Webhook } from '@slipway/contracts';

export type WebhookAction = 'deliveries' | 'edit' | 'toggle' | 'rotate' | 'delete';

/** Webhooks as rows; each row's actions sit in a menu, disabled where the caller lacks the permission. */
export function WebhooksTable({
  webhooks,
  allowed,
  onAction,
}: {
  webhooks: Webhook[];
  allowed: (action: WebhookAction) => boolean;
  onAction: (action: WebhookAction, webhook: Webhook) => void;
}) {
  const { t, i18n } = useTranslation();
  const [menu, setMenu] = useState<{ anchor: HTMLElement; webhook: Webhook } | null>(null);
  const choose = (action: WebhookAction) => {
    if (menu) onAction(action, menu.webhook);
    setMenu(null);
  };
  return (
    <TableContainer>
      <Table size="small" aria-label={t('webhooks.title')}>
        <TableHead>
          <TableRow>
            {(['pipeline', 'type', 'event', 'branch', 'status', 'lastDelivery'] as const).map((c) => (
              <TableCell key={c}>{t(`webhooks.columns.${c}`)}</TableCell>
            ))}
            <TableCell align="right">{t('common.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {webhooks.map((w) => (
            <TableRow key={w.id} data-testid="webhook-row">
              <TableCell>{w.pipelineName}</TableCell>
              <TableCell>{t(`webhooks.types.${w.type}`)}</TableCell>
              <TableCell>{w.event}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace' }}>{w.branch}</TableCell>
              <TableCell>
                <Chip
                  size="small"
                  color={w.enabled ? 'success' : 'default'}
                  label={w.enabled ? t('webhooks.enabled') : t('webhooks.disabled')}
                />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {w.lastDeliveryAt
                  ? new Date(w.lastDeliveryAt).toLocaleString(i18n.language)
                  : t('webhooks.never')}
              </TableCell>
              <TableCell align="right">
                <IconButton
                  aria-label={t('webhooks.actionsFor', {
                    type: t(`webhooks.types.${w.type}`),
                    event: w.event,
                    pipeline: w.pipelineName,
                  })}
                  aria-haspopup="menu"
                  onClick={(e) => setMenu({ anchor: e.currentTarget, webhook: w })}
                >
                  <MoreVert />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Menu anchorEl={menu?.anchor} open={Boolean(menu)} onClose={() => setMenu(null)}>
        <MenuItem onClick={() => choose('deliveries')}>{t('webhooks.deliveries')}</MenuItem>
        <MenuItem disabled={!allowed('edit')} onClick={() => choose('edit')}>
          {t('common.edit')}
        </MenuItem>
        <MenuItem disabled={!allowed('toggle')} onClick={() => choose('toggle')}>
          {menu?.webhook.enabled ? t('webhooks.disable') : t('webhooks.enable')}
        </MenuItem>
        <MenuItem disabled={!allowed('rotate')} onClick={() => choose('rotate')}>
          {t('webhooks.rotate')}
        </MenuItem>
        <MenuItem disabled={!allowed('delete')} onClick={() => choose('delete')} sx={{ color: 'error.main' }}>
          {t('common.delete')}
        </MenuItem>
      </Menu>
    </TableContainer>
  );
}
