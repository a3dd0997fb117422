import { useTranslation } from 'react-i18next';
import type { Webhook } from '@slipway/contracts';
import { timeColumn } from '../../ui/columns';
import { DataTable, type Column, type TableStates } from '../../ui/DataTable';
import { useRowMenu } from '../../ui/RowMenu';
import { EnabledChip } from '../../ui/StatusChip';

export type WebhookAction = 'deliveries' | 'edit' | 'toggle' | 'rotate' | 'delete';

/**
 * Webhooks as rows, sortable by type, event and branch; each row's actions sit in a menu, disabled
 * where the caller lacks the permission. On a phone only the pipeline, status and menu stay.
 */
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
  const rowMenu = useRowMenu<Webhook, WebhookAction>({
    items: (w) => [
      { action: 'deliveries', label: t('webhooks.deliveries') },
      { action: 'edit', label: t('common.edit'), disabled: !allowed('edit') },
      {
        action: 'toggle',
        label: w.enabled ? t('webhooks.disable') : t('webhooks.enable'),
        disabled: !allowed('toggle'),
      },
      { action: 'rotate', label: t('webhooks.rotate'), disabled: !allowed('rotate') },
      { action: 'delete', label: t('common.delete'), disabled: !allowed('delete'), danger: true },
    ],
    onAction,
  });
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
    rowMenu.column(t('common.actions'), (w) =>
      t('webhooks.actionsFor', {
        type: t(`webhooks.types.${w.type}`),
        event: w.event,
        pipeline: w.pipelineName,
      }),
    ),
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
      {rowMenu.menu}
    </DataTable>
  );
}
