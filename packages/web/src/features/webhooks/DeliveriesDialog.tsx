import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Webhook, WebhookDelivery, WebhookDeliveryOutcome } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { timeColumn } from '../../ui/columns';
import { DataTable, type Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { listStates } from '../../ui/list-states';
import { TranslatedStatusChip, type ChipColor } from '../../ui/StatusChip';
import { useListParams } from '../../ui/useListParams';
import { useWebhookDeliveriesQuery } from './api';

const OUTCOME_COLOR: Record<WebhookDeliveryOutcome, ChipColor> = {
  triggered: 'success',
  ignored: 'default',
  rejected: 'error',
  failed: 'warning',
  duplicate: 'default',
};

/**
 * A webhook's delivery log, newest first (or sorted by time or outcome from the headers) and
 * paged: time, event, outcome, status, message, run.
 */
export function DeliveriesDialog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const listParams = useListParams({ sort: { key: 'receivedAt', order: 'desc' } });
  const list = useWebhookDeliveriesQuery(
    { id: webhook.id, params: listParams.params },
    { refetchOnMountOrArgChange: true },
  );
  const columns: Column<WebhookDelivery>[] = [
    timeColumn<WebhookDelivery>(
      'time',
      t('webhooks.deliveryLog.columns.time'),
      (d) => d.receivedAt,
      i18n.language,
      {
        sortKey: 'receivedAt',
      },
    ),
    { id: 'event', header: t('webhooks.deliveryLog.columns.event'), cell: (d) => d.event ?? '' },
    {
      id: 'outcome',
      header: t('webhooks.deliveryLog.columns.outcome'),
      sortKey: 'outcome',
      cell: (d) => (
        <TranslatedStatusChip status={d.outcome} colors={OUTCOME_COLOR} labels="webhooks.outcomes" />
      ),
    },
    { id: 'status', header: t('webhooks.deliveryLog.columns.status'), cell: (d) => d.statusCode },
    {
      id: 'message',
      header: t('webhooks.deliveryLog.columns.message'),
      cell: (d) => d.message,
      sx: { wordBreak: 'break-word' },
    },
    {
      id: 'run',
      header: t('webhooks.deliveryLog.columns.run'),
      cell: (d) =>
        d.runId ? (
          <Link component={RouterLink} to={`/pipelines/runs/${d.runId}`}>
            {t('webhooks.deliveryLog.viewRun')}
          </Link>
        ) : null,
    },
  ];
  const body = (
    <DataTable
      aria-label={t('webhooks.deliveries')}
      columns={columns}
      rows={list.data?.rows}
      getRowId={(d) => d.id}
      rowTestId="delivery-row"
      {...listStates(list, t('webhooks.deliveryLog.loadError'), {
        empty: (
          <EmptyState title={t('webhooks.deliveryLog.empty')}>
            <Typography color="text.secondary">{t('webhooks.deliveryLog.emptyBody')}</Typography>
          </EmptyState>
        ),
        ...listParams.table,
      })}
    />
  );

  return (
    <Dialog open onClose={onClose} aria-labelledby="deliveries-title" fullWidth maxWidth="lg">
      <DialogTitle id="deliveries-title">
        {t('webhooks.deliveryLog.title', {
          type: t(`webhooks.types.${webhook.type}`),
          event: webhook.event,
          pipeline: webhook.pipelineName,
        })}
      </DialogTitle>
      <DialogContent>{body}</DialogContent>
      <DialogActions>
        <Button onClick={() => void list.refetch()} disabled={list.isFetching}>
          {t('webhooks.deliveryLog.refresh')}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {t('webhooks.deliveryLog.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
