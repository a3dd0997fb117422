import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
import type { WebhooksService } from './webhooks-service.js';

const tags = ['webhooks'];

/** Webhook CRUD under /api/webhooks, scoped to the workspace in x-workspace-id. */
export function webhookRoutes(service: WebhooksService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/webhooks',
      {
        config: { access: inWorkspace('webhooks:view') },
        schema: {
          tags,
          summary: 'Webhooks of the workspace (never their secrets)',
          querystring: webhookListQuerySchema,
          response: { 200: webhookListSchema },
        },
      },
      async (request, reply) => {
        const { rows, total } = await service.list(request.workspaceId!, request.query);
        return withTotalCount(reply, rows, total);
      },
    );
    app.get(
      '/api/webhooks/:id',
      {
        config: { access: inWorkspace('webhooks:view') },
        schema: { tags, summary: 'One webhook', params: idParamsSchema, response: { 200: webhookSchema } },
      },
      async (request) => service.get(request.workspaceId!, request.params.id),
    );
    app.post(
      '/api/webhooks',
      {
        config: {
          access: inWorkspace('webhooks:create'),
          auditAction: 'webhook.create',
          auditTarget: { type: 'webhook', id: 'response.id' },
        },
        schema: {
          tags,
          summary: 'Create a webhook; the answer shows its secret, this once',
          body: webhookCreateSchema,
          response: { 201: webhookWithSecretSchema },
        },
      },
      async (request, reply) => {
        const by = actorIdOf(request.principal);
        const created = await service.create(request.workspaceId!, request.body, by);
        request.audit.detail = { type: created.type, event: created.event, pipelineId: created.pipelineId };
        return reply.code(201).send(created);
      },
    );
    app.put(
      '/api/webhooks/:id',
      {
        config: {
          access: inWorkspace('webhooks:edit'),
          auditAction: 'webhook.update',
          auditTarget: { type: 'webhook', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Change a webhook (pipeline, type, event, branch, enabled)',
          params: idParamsSchema,
          body: webhookUpdateSchema,
          response: { 200: webhookSchema },
        },
      },
      async (request) => {
        request.audit.detail = { ...request.body };
        return service.update(request.workspaceId!, request.params.id, request.body);
      },
    );
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
    app.delete(
      '/api/webhooks/:id',
      {
        config: {
          access: inWorkspace('webhooks:delete'),
          auditAction: 'webhook.delete',
          auditTarget: { type: 'webhook', id: 'params.id' },
        },
        schema: { tags, summary: 'Delete a webhook', params: idParamsSchema, response: { 204: z.null() } },
      },
      async (request, reply) => {
        await service.remove(request.workspaceId!, request.params.id);
        return reply.code(204).send(null);
      },
    );
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
