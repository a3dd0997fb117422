import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  idParamsSchema,
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
import { actorIdOf, inWorkspace } from '../../platform/auth/principal.js';
import { withTotalCount } from '../../platform/database/paging.js';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import type { WebhooksService } from './webhooks-service.js';

const tags = ['webhooks'];

/** Webhook CRUD under /api/webhooks, scoped to the workspace in x-workspace-id. */
export function webhookRoutes(service: WebhooksService): FastifyPluginAsyncZod {
  return async (app) => {
    const webhooks = resourceRoutes(app, {
      path: '/api/webhooks',
      tags,
      scope: WORKSPACE,
      permission: 'webhooks',
      audit: 'webhook',
    });
    webhooks.list({
      summary: 'Webhooks of the workspace (never their secrets)',
      querystring: webhookListQuerySchema,
      response: webhookListSchema,
      handler: (ws, query) => service.list(ws, query),
    });
    webhooks.get({
      summary: 'One webhook',
      response: webhookSchema,
      handler: (ws, id) => service.get(ws, id),
    });
    webhooks.create({
      summary: 'Create a webhook; the answer shows its secret, this once',
      body: webhookCreateSchema,
      response: webhookWithSecretSchema,
      handler: (ws, body, request) => service.create(ws, body, actorIdOf(request.principal)),
      detail: ({ type, event, pipelineId }) => ({ type, event, pipelineId }),
    });
    webhooks.update({
      summary: 'Change a webhook (pipeline, type, event, branch, enabled)',
      body: webhookUpdateSchema,
      response: webhookSchema,
      handler: (ws, id, body, request) => {
        request.audit.detail = { ...body };
        return service.update(ws, id, body);
      },
    });
    app.post(
      '/api/webhooks/:id/rotate',
      {
        config: {
          access: inWorkspace('webhooks:edit'),
          auditAction: 'webhook.rotate',
          auditTarget: { type: 'webhook', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Replace the secret; the answer shows the new one, this once',
          params: idParamsSchema,
          body: webhookRotateSchema.optional(),
          response: { 200: webhookWithSecretSchema },
        },
      },
      async (request) => service.rotate(request.workspaceId!, request.params.id, request.body ?? {}),
    );
    webhooks.remove({ summary: 'Delete a webhook', handler: (ws, id) => service.remove(ws, id) });
    app.get(
      '/api/webhooks/:id/deliveries',
      {
        config: { access: inWorkspace('webhooks:view') },
        schema: {
          tags,
          summary: 'The delivery log of a webhook, newest first',
          params: idParamsSchema,
          querystring: webhookDeliveryListQuerySchema,
          response: { 200: webhookDeliveryListSchema },
        },
      },
      async (request, reply) => {
        const { rows, total } = await service.deliveries(
          request.workspaceId!,
          request.params.id,
          request.query,
        );
        return withTotalCount(reply, rows, total);
      },
    );
  };
}
