import { useTranslation } from 'react-i18next';
import type { Webhook } from '@slipway/contracts';
import { timeColumn } from '../../ui/columns';
import type { Column } from '../../ui/DataTable';
import { MenuTable, type RowActionProps, type RowMenuItem } from '../../ui/RowMenu';
import { EnabledChip } from '../../ui/StatusChip';

export type WebhookAction = 'deliveries' | 'edit' | 'toggle' | 'rotate' | 'delete';

/**
 * Webhooks as rows, sortable by type, event and branch; each row's actions sit in a menu, disabled
 * where the caller lacks the permission. On a phone only the pipeline, status and menu stay.
 */
export function WebhooksTable({
  webhooks,
  ...actions
}: RowActionProps<Webhook, WebhookAction> & {
  webhooks: Webhook[] | undefined;
}) {
  const { t, i18n } = useTranslation();
  const items = (w: Webhook): RowMenuItem<WebhookAction>[] => [
    { action: 'deliveries', label: t('webhooks.deliveries') },
    { action: 'edit', label: t('common.edit'), disabled: !actions.allowed('edit') },
    {
      action: 'toggle',
      label: w.enabled ? t('webhooks.disable') : t('webhooks.enable'),
      disabled: !actions.allowed('toggle'),
    },
    { action: 'rotate', label: t('webhooks.rotate'), disabled: !actions.allowed('rotate') },
    { action: 'delete', label: t('common.delete'), disabled: !actions.allowed('delete'), danger: true },
  ];
  const columns: Column<Webhook>[] = [
    { id: 'pipeline', header: t('webhooks.columns.pipeline'), cell: (w) => w.pipelineName },
    {
      id: 'type',
      header: t('webhooks.columns.type'),
      sortKey: 'type',
      cell: (w) => t(`webhooks.types.${w.type}`),
      hideBelow: 'sm',
    },
    {
      id: 'event',
      header: t('webhooks.columns.event'),
      sortKey: 'event',
      cell: (w) => w.event,
      hideBelow: 'sm',
    },
    {
      id: 'branch',
      header: t('webhooks.columns.branch'),
      sortKey: 'branch',
      cell: (w) => w.branch,
      sx: { fontFamily: 'monospace' },
      hideBelow: 'sm',
    },
    {
      id: 'status',
      header: t('webhooks.columns.status'),
      cell: (w) => (
        <EnabledChip enabled={w.enabled} on={t('webhooks.enabled')} off={t('webhooks.disabled')} />
      ),
    },
    timeColumn<Webhook>(
      'lastDelivery',
      t('webhooks.columns.lastDelivery'),
      (w) => w.lastDeliveryAt,
      i18n.language,
      { none: t('webhooks.never'), hideBelow: 'sm' },
    ),
  ];
  return (
    <MenuTable<Webhook, WebhookAction>
      label={t('webhooks.title')}
      columns={columns}
      rows={webhooks}
      rowTestId="webhook-row"
      items={items}
      menuLabel={(w) =>
        t('webhooks.actionsFor', {
          type: t(`webhooks.types.${w.type}`),
          event: w.event,
          pipeline: w.pipelineName,
        })
      }
      onAction={actions.onAction}
      states={actions.states}
    />
  );
}
