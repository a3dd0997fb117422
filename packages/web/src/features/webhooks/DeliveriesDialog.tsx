import Chip from '@mui/material/Chip';
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
import { DataTable, queryStates, type Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { useListParams } from '../../ui/useListParams';
import { useWebhookDeliveriesQuery } from './api';

const OUTCOME_COLOR: Record<WebhookDeliveryOutcome, 'success' | 'default' | 'error' | 'warning'> = {
  triggered: 'success',
  ignored: 'default',
  rejected: 'error',
  failed: 'warning',
  duplicate: 'default',
};

/** A webhook's delivery log, newest first and paged: time, event, outcome, status, message, run. */
export function DeliveriesDialog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { paging, params } = useListParams();
  const list = useWebhookDeliveriesQuery(
    { id: webhook.id, params: { ...params, _order: 'DESC' } },
    { refetchOnMountOrArgChange: true },
  );
  const columns: Column<WebhookDelivery>[] = [
    {
      id: 'time',
      header: t('webhooks.deliveryLog.columns.time'),
      cell: (d) => new Date(d.receivedAt).toLocaleString(i18n.language),
      sx: { whiteSpace: 'nowrap' },
    },
    { id: 'event', header: t('webhooks.deliveryLog.columns.event'), cell: (d) => d.event ?? '' },
    {
      id: 'outcome',
      header: t('webhooks.deliveryLog.columns.outcome'),
      cell: (d) => (
        <Chip size="small" color={OUTCOME_COLOR[d.outcome]} label={t(`webhooks.outcomes.${d.outcome}`)} />
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
      {...queryStates(list, t('webhooks.deliveryLog.loadError'))}
      empty={
        <EmptyState title={t('webhooks.deliveryLog.empty')}>
          <Typography color="text.secondary">{t('webhooks.deliveryLog.emptyBody')}</Typography>
        </EmptyState>
      }
      paging={paging}
      total={list.data?.total}
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
