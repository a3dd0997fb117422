import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Webhook, WebhookDeliveryOutcome } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { LoadError } from '../../ui/LoadError';
import { Skeleton } from '../../ui/Skeleton';
import { useWebhookDeliveriesQuery } from './api';

const PAGE_SIZES = [10, 25, 50];
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
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(PAGE_SIZES[0]!);
  const params = {
    _start: String(page * rowsPerPage),
    _end: String((page + 1) * rowsPerPage),
    _order: 'DESC',
  };
  const { data, error, isLoading, isFetching, refetch } = useWebhookDeliveriesQuery(
    { id: webhook.id, params },
    { refetchOnMountOrArgChange: true },
  );

  let body;
  if (isLoading) body = <Skeleton lines={4} />;
  else if (!data)
    body = (
      <LoadError
        what={t('webhooks.deliveryLog.loadError')}
        error={error}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  else if (data.total === 0)
    body = (
      <EmptyState title={t('webhooks.deliveryLog.empty')}>
        <Typography color="text.secondary">{t('webhooks.deliveryLog.emptyBody')}</Typography>
      </EmptyState>
    );
  else
    body = (
      <>
        <TableContainer>
          <Table size="small" aria-label={t('webhooks.deliveries')}>
            <TableHead>
              <TableRow>
                {(['time', 'event', 'outcome', 'status', 'message', 'run'] as const).map((c) => (
                  <TableCell key={c}>{t(`webhooks.deliveryLog.columns.${c}`)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {data.rows.map((d) => (
                <TableRow key={d.id} data-testid="delivery-row">
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {new Date(d.receivedAt).toLocaleString(i18n.language)}
                  </TableCell>
                  <TableCell>{d.event ?? ''}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={OUTCOME_COLOR[d.outcome]}
                      label={t(`webhooks.outcomes.${d.outcome}`)}
                    />
                  </TableCell>
                  <TableCell>{d.statusCode}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-word' }}>{d.message}</TableCell>
                  <TableCell>
                    {d.runId ? (
                      <Link component={RouterLink} to={`/pipelines/runs/${d.runId}`}>
                        {t('webhooks.deliveryLog.viewRun')}
                      </Link>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination
          component="div"
          count={data.total}
          page={page}
          rowsPerPage={rowsPerPage}
          rowsPerPageOptions={PAGE_SIZES}
          onPageChange={(_e, p) => setPage(p)}
          onRowsPerPageChange={(e) => {
            setRowsPerPage(Number(e.target.value));
            setPage(0);
          }}
        />
      </>
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
        <Button onClick={() => void refetch()} disabled={isFetching}>
          {t('webhooks.deliveryLog.refresh')}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {t('webhooks.deliveryLog.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
