import {
  type Webhook,
  type WebhookCreate,
  type WebhookDelivery,
  type WebhookUpdate,
  type WebhookWithSecret,
} from '@slipway/contracts';
import { api } from '../../app/api';
import { totalOf, type Page } from '../../app/page';

/** Webhooks (`/api/webhooks`) and their delivery logs. */
export const webhooksApi = api.enhanceEndpoints({ addTagTypes: ['Webhook'] }).injectEndpoints({
  endpoints: (build) => ({
    webhooks: build.query<Page<Webhook>, Record<string, string>>({
      query: (params) => ({ url: 'webhooks', params }),
      transformResponse: (rows: Webhook[], meta) => ({ rows, total: totalOf(meta, rows.length) }),
      providesTags: [{ type: 'Webhook', id: 'LIST' }],
    }),
    createWebhook: build.mutation<WebhookWithSecret, WebhookCreate>({
      query: (body) => ({ url: 'webhooks', method: 'POST', body }),
      invalidatesTags: [{ type: 'Webhook', id: 'LIST' }],
    }),
    updateWebhook: build.mutation<Webhook, { id: string; body: WebhookUpdate }>({
      query: ({ id, body }) => ({ url: `webhooks/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: [{ type: 'Webhook', id: 'LIST' }],
    }),
    rotateWebhookSecret: build.mutation<WebhookWithSecret, string>({
      query: (id) => ({ url: `webhooks/${encodeURIComponent(id)}/rotate`, method: 'POST', body: {} }),
    }),
    deleteWebhook: build.mutation<void, string>({
      query: (id) => ({ url: `webhooks/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Webhook', id: 'LIST' }],
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
