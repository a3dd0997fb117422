import MoreVert from '@mui/icons-material/MoreVert';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Webhook } from '@slipway/contracts';
import { DataTable, type Column, type TableStates } from '../../ui/DataTable';

export type WebhookAction = 'deliveries' | 'edit' | 'toggle' | 'rotate' | 'delete';

/** Webhooks as rows; each row's actions sit in a menu, disabled where the caller lacks the permission. */
export function WebhooksTable({
  webhooks,
  states,
  allowed,
  onAction,
}: {
  webhooks: Webhook[] | undefined;
  /** The list's loading, error and empty states and its pager. */
  states?: TableStates;
  allowed: (action: WebhookAction) => boolean;
  onAction: (action: WebhookAction, webhook: Webhook) => void;
}) {
  const { t, i18n } = useTranslation();
  const [menu, setMenu] = useState<{ anchor: HTMLElement; webhook: Webhook } | null>(null);
  const choose = (action: WebhookAction) => {
    if (menu) onAction(action, menu.webhook);
    setMenu(null);
  };
  const columns: Column<Webhook>[] = [
    { id: 'pipeline', header: t('webhooks.columns.pipeline'), cell: (w) => w.pipelineName },
    { id: 'type', header: t('webhooks.columns.type'), cell: (w) => t(`webhooks.types.${w.type}`) },
    { id: 'event', header: t('webhooks.columns.event'), cell: (w) => w.event },
    {
      id: 'branch',
      header: t('webhooks.columns.branch'),
      cell: (w) => w.branch,
      sx: { fontFamily: 'monospace' },
    },
    {
      id: 'status',
      header: t('webhooks.columns.status'),
      cell: (w) => (
        <Chip
          size="small"
          color={w.enabled ? 'success' : 'default'}
          label={w.enabled ? t('webhooks.enabled') : t('webhooks.disabled')}
        />
      ),
    },
    {
      id: 'lastDelivery',
      header: t('webhooks.columns.lastDelivery'),
      cell: (w) =>
        w.lastDeliveryAt ? new Date(w.lastDeliveryAt).toLocaleString(i18n.language) : t('webhooks.never'),
      sx: { whiteSpace: 'nowrap' },
    },
    {
      id: 'actions',
      header: t('common.actions'),
      align: 'end',
      cell: (w) => (
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
      ),
    },
  ];
  return (
    <DataTable
      aria-label={t('webhooks.title')}
      columns={columns}
      rows={webhooks}
      getRowId={(w) => w.id}
      rowTestId="webhook-row"
      {...states}
    >
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
    </DataTable>
  );
}
