import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema, webhookReceiptSchema } from '@slipway/contracts';
import { PUBLIC } from '../../platform/auth/principal.js';
import { AppError } from '../../platform/errors.js';
import type { WebhooksService } from './webhooks-service.js';

/**
 * POST /api/hooks/:id, where GitHub, GitLab and Bitbucket deliver. Public at the access layer:
 * the provider's signature (or token) over the raw body is the authentication, so this plugin
 * keeps bodies as raw bytes, in its own encapsulated scope only.
 */
export function hooksReceiverRoutes(service: WebhooksService): FastifyPluginAsyncZod {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    app.post(
      '/api/hooks/:id',
      {
        config: {
          access: PUBLIC,
          auditAction: 'webhook.deliver',
          auditTarget: { type: 'webhook', id: 'params.id' },
        },
        schema: {
          tags: ['webhooks'],
          summary: 'Receive a delivery from GitHub, GitLab or Bitbucket',
          params: idParamsSchema,
          response: { 200: webhookReceiptSchema, 201: webhookReceiptSchema, 202: webhookReceiptSchema },
        },
      },
      async (request, reply) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const receipt = await service.receive(request.params.id, {
          headers: request.headers,
          body,
          contentType: String(request.headers['content-type'] ?? 'application/json').toLowerCase(),
        });
        request.audit.workspaceId = receipt.workspaceId;
        request.audit.actorLabel = `webhook ${request.params.id}`;
        request.audit.detail = { outcome: receipt.outcome, runId: receipt.runId };
        if (receipt.statusCode >= 400) throw new AppError(receipt.statusCode, receipt.message);
        const { statusCode, outcome, message, deliveryId, runId } = receipt;
        return reply.code(statusCode as 200 | 201 | 202).send({ outcome, message, deliveryId, runId });
      },
    );
  };
}
