import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditExportQuerySchema, auditListQuerySchema, auditListResponseSchema } from '@slipway/contracts';
import { inOrganisation } from '../../platform/auth/principal.js';
import { withTotalCount } from '../../platform/database/paging.js';
import type { AuditService } from './audit-service.js';

const tags = ['audit'];

/** The audit trail, read-only: there is no route that changes or deletes a record. */
export function auditRoutes(service: AuditService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/audit',
      {
        config: { access: inOrganisation('audit:view') },
        schema: {
          tags,
          summary: 'The audit trail of the current organisation, filtered; X-Total-Count has the total',
          querystring: auditListQuerySchema,
          response: { 200: auditListResponseSchema },
        },
      },
      async (request, reply) => {
        const { rows, total } = await service.list(request.principal!.organisationId, request.query);
        return withTotalCount(reply, rows, total);
      },
    );
    app.get(
      '/api/audit/export.csv',
      {
        config: { access: inOrganisation('audit:view') },
        schema: {
          tags,
          summary: 'The filtered audit trail as CSV (RFC 4180, formulas neutralised)',
          querystring: auditExportQuerySchema,
          produces: ['text/csv'],
        },
      },
      async (request, reply) => {
        const day = new Date().toISOString().slice(0, 10);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="audit-${day}.csv"`)
          .header('cache-control', 'no-store')
          .send(Readable.from(service.exportCsv(request.principal!.organisationId, request.query)));
      },
    );
  };
}
