import {
  type Webhook,
  type WebhookCreate,
  type WebhookDelivery,
  type WebhookUpdate,
  type WebhookWithSecret,
} from '@slipway/contracts';
import { api } from '../../app/api';
import { totalOf, type Page } from '../../app/page';
import { resourceEndpoints } from '../../app/resource-endpoints';

/** Webhooks (`/api/webhooks`) and their delivery logs. */
export const webhooksApi = api.enhanceEndpoints({ addTagTypes: ['Webhook'] }).injectEndpoints({
  endpoints: (build) => ({
    ...resourceEndpoints<{
      row: Webhook;
      created: WebhookWithSecret;
      create: WebhookCreate;
      update: WebhookUpdate;
    }>()(build, { name: 'webhook', url: 'webhooks', ops: ['list', 'create', 'update', 'delete'] }),
    rotateWebhookSecret: build.mutation<WebhookWithSecret, string>({
      query: (id) => ({ url: `webhooks/${encodeURIComponent(id)}/rotate`, method: 'POST', body: {} }),
    }),
    webhookDeliveries: build.query<Page<WebhookDelivery>, { id: string; params: Record<string, string> }>({
      query: ({ id, params }) => ({ url: `webhooks/${encodeURIComponent(id)}/deliveries`, params }),
      transformResponse: (rows: WebhookDelivery[], meta) => ({ rows, total: totalOf(meta, rows.length) }),
      providesTags: (_r, _e, { id }) => [{ type: 'Webhook', id: `deliveries-${id}` }],
    }),
  }),
});

export const {
  useWebhooksQuery,
  useCreateWebhookMutation,
  useUpdateWebhookMutation,
  useRotateWebhookSecretMutation,
  useDeleteWebhookMutation,
  useWebhookDeliveriesQuery,
} = webhooksApi;
