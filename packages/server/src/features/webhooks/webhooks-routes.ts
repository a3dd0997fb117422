import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  webhookCreateSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryListSchema,
  webhookListQuerySchema,
  webhookListSchema,
  webhookRotateSchema,
  webhookSchema,
  webhookUpdateSchema,
  webhookWithSecretSchema,
} from '@slipway/contracts';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import { standardRoutes } from '../../platform/standard-routes.js';
import type { WebhooksService } from './webhooks-service.js';

/** Webhook CRUD under /api/webhooks, scoped to the workspace in x-workspace-id. */
export function webhookRoutes(service: WebhooksService): FastifyPluginAsyncZod {
  return async (app) => {
    const webhooks = resourceRoutes(app, {
      path: '/api/webhooks',
      tags: ['webhooks'],
      scope: WORKSPACE,
      permission: 'webhooks',
      audit: 'webhook',
    });
    standardRoutes(webhooks, service, {
      schemas: {
        query: webhookListQuerySchema,
        list: webhookListSchema,
        item: webhookSchema,
        created: webhookWithSecretSchema,
        create: webhookCreateSchema,
        update: webhookUpdateSchema,
      },
      summaries: {
        list: 'Webhooks of the workspace (never their secrets)',
        get: 'One webhook',
        create: 'Create a webhook; the answer shows its secret, this once',
        update: 'Change a webhook (pipeline, type, event, branch, enabled)',
        remove: 'Delete a webhook',
      },
      createDetail: ({ type, event, pipelineId }) => ({ type, event, pipelineId }),
      updateDetail: (body) => ({ ...body }),
    });
    webhooks.action({
      name: 'rotate',
      summary: 'Replace the secret; the answer shows the new one, this once',
      body: webhookRotateSchema.optional(),
      response: webhookWithSecretSchema,
      handler: (ws, id, body) => service.rotate(ws, id, body ?? {}),
    });
    webhooks.view({
      name: 'deliveries',
      summary: 'The delivery log of a webhook, newest first',
      querystring: webhookDeliveryListQuerySchema,
      response: webhookDeliveryListSchema,
      handler: (ws, { id }, query) => service.deliveries(ws, id, query),
    });
  };
}
