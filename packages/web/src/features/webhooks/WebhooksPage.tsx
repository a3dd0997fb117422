import Webhook from '@mui/icons-material/Webhook';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Webhook as WebhookView, WebhookWithSecret } from '@slipway/contracts';
import { errorMessage } from '../../ui/api-error';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EmptyState } from '../../ui/EmptyState';
import { listStates } from '../../ui/list-states';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useListParams } from '../../ui/useListParams';
import { ListAreaPage } from '../access/ListAreaPage';
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
  const listParams = useListParams();
  const list = useWebhooksQuery(listParams.params);
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

  const body = (
    <WebhooksTable
      webhooks={list.data?.rows}
      states={listStates(list, t('webhooks.loadError'), {
        empty: (
          <EmptyState icon={Webhook} title={t('webhooks.emptyTitle')}>
            <Typography color="text.secondary">{t('webhooks.emptyBody')}</Typography>
          </EmptyState>
        ),
        ...listParams.table,
      })}
      allowed={(action) => action === 'deliveries' || can(PERMISSION[action])}
      onAction={onAction}
    />
  );

  const busy = confirm?.kind === 'delete' ? removal : rotation;
  return (
    <ListAreaPage
      id="webhooks"
      title={t('webhooks.title')}
      create={{ permission: 'webhooks:create', label: t('webhooks.create'), onClick: () => setDialog({}) }}
      notice={{ message: updating.error ? errorMessage(updating.error) : null }}
      section={{ id: 'webhooks-heading', title: t('webhooks.listTitle') }}
      list={body}
    >
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
    </ListAreaPage>
  );
}
