import Add from '@mui/icons-material/Add';
import Webhook from '@mui/icons-material/Webhook';
import Box from '@mui/material/Box';
import TablePagination from '@mui/material/TablePagination';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Webhook as WebhookView, WebhookWithSecret } from '@slipway/contracts';
import { errorMessage } from '../../app/api-error';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EmptyState } from '../../ui/EmptyState';
import { FormAlert } from '../../ui/FormAlert';
import { LoadError } from '../../ui/LoadError';
import { Section } from '../../ui/Section';
import { Skeleton } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { PermissionButton } from '../access/Can';
import { useCan } from '../access/usePermission';
import {
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  useUpdateWebhookMutation,
  useWebhooksQuery,
} from './api';
import { DeliveriesDialog } from './DeliveriesDialog';
import { SecretDialog } from './SecretDialog';
import { WebhookDialog } from './WebhookDialog';
import { WebhooksTable, type WebhookAction } from './WebhooksTable';

const PAGE_SIZES = [10, 25, 50];
const PERMISSION = {
  edit: 'webhooks:edit',
  toggle: 'webhooks:edit',
  rotate: 'webhooks:edit',
  delete: 'webhooks:delete',
} as const;

/** Webhooks: the pipelines GitHub, GitLab and Bitbucket start, with each one's delivery log. */
export default function WebhooksPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('webhooks.title'));
  const can = useCan();
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(PAGE_SIZES[0]!);
  const params = { _start: String(page * rowsPerPage), _end: String((page + 1) * rowsPerPage) };
  const { data, error, isLoading, isFetching, refetch } = useWebhooksQuery(params);
  const [dialog, setDialog] = useState<{ webhook?: WebhookView } | null>(null);
  const [secret, setSecret] = useState<WebhookWithSecret | null>(null);
  const [deliveries, setDeliveries] = useState<WebhookView | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'delete' | 'rotate'; webhook: WebhookView } | null>(null);
  const [remove, removal] = useDeleteWebhookMutation();
  const [rotate, rotation] = useRotateWebhookSecretMutation();
  const [update, updating] = useUpdateWebhookMutation();
  const closeConfirm = () => {
    removal.reset();
    rotation.reset();
    setConfirm(null);
  };

  function onAction(action: WebhookAction, webhook: WebhookView) {
    if (action === 'deliveries') setDeliveries(webhook);
    else if (action === 'edit') setDialog({ webhook });
    else if (action === 'toggle') void update({ id: webhook.id, body: { enabled: !webhook.enabled } });
    else setConfirm({ kind: action, webhook });
  }

  async function onConfirm() {
    if (!confirm) return;
    if (confirm.kind === 'delete') {
      if (!(await remove(confirm.webhook.id)).error) closeConfirm();
      return;
    }
    const answer = await rotate(confirm.webhook.id);
    if (answer.data) {
      closeConfirm();
      setSecret(answer.data);
    }
  }

  let body;
  if (isLoading) body = <Skeleton lines={4} />;
  else if (!data)
    body = (
      <LoadError
        what={t('webhooks.loadError')}
        error={error}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  else if (data.total === 0)
    body = (
      <EmptyState icon={Webhook} title={t('webhooks.emptyTitle')}>
        <Typography color="text.secondary">{t('webhooks.emptyBody')}</Typography>
      </EmptyState>
    );
  else
    body = (
      <>
        <WebhooksTable
          webhooks={data.rows}
          allowed={(action) => action === 'deliveries' || can(PERMISSION[action])}
          onAction={onAction}
        />
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

  const busy = confirm?.kind === 'delete' ? removal : rotation;
  return (
    <Box data-testid="area-webhooks" sx={{ maxWidth: 1200, display: 'grid', gap: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1" sx={{ flex: 1 }}>
          {t('webhooks.title')}
        </Typography>
        <PermissionButton
          permission="webhooks:create"
          variant="contained"
          startIcon={<Add />}
          onClick={() => setDialog({})}
        >
          {t('webhooks.create')}
        </PermissionButton>
      </Box>
      <FormAlert message={updating.error ? errorMessage(updating.error) : null} />
      <Section id="webhooks-heading" title={t('webhooks.listTitle')}>
        {body}
      </Section>
      {dialog ? (
        <WebhookDialog
          webhook={dialog.webhook}
          onClose={() => setDialog(null)}
          onCreated={(created) => {
            setDialog(null);
            setSecret(created);
          }}
        />
      ) : null}
      {secret ? <SecretDialog webhook={secret} onClose={() => setSecret(null)} /> : null}
      {deliveries ? <DeliveriesDialog webhook={deliveries} onClose={() => setDeliveries(null)} /> : null}
      <ConfirmDialog
        open={Boolean(confirm)}
        title={
          confirm?.kind === 'rotate' ? t('webhooks.confirmRotate.title') : t('webhooks.confirmDelete.title')
        }
        body={
          confirm?.kind === 'rotate' ? t('webhooks.confirmRotate.body') : t('webhooks.confirmDelete.body')
        }
        confirmLabel={confirm?.kind === 'rotate' ? t('webhooks.confirmRotate.confirm') : t('common.delete')}
        loading={busy.isLoading}
        error={busy.error ? errorMessage(busy.error) : null}
        onClose={closeConfirm}
        onConfirm={() => void onConfirm()}
      />
    </Box>
  );
}
