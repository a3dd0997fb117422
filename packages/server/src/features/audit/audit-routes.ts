import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditExportQuerySchema, auditListQuerySchema, auditListResponseSchema } from '@slipway/contracts';
import { inOrganisation } from '../../platform/auth/principal.js';
import { routes } from '../../platform/routes.js';
import type { AuditService } from './audit-service.js';

/** The audit trail, read-only: there is no route that changes or deletes a record. */
export function auditRoutes(service: AuditService): FastifyPluginAsyncZod {
  return async (app) => {
    const audit = routes(app, ['audit']);
    audit.get('/api/audit', {
      summary: 'The audit trail of the current organisation, filtered; X-Total-Count has the total',
      access: inOrganisation('audit:view'),
      querystring: auditListQuerySchema,
      response: auditListResponseSchema,
      handler: async (request) => service.list(request.principal!.organisationId, request.query),
    });
    audit.get('/api/audit/export.csv', {
      summary: 'The filtered audit trail as CSV (RFC 4180, formulas neutralised)',
      access: inOrganisation('audit:view'),
      querystring: auditExportQuerySchema,
      produces: ['text/csv'],
      handler: async (request, reply) => {
        const day = new Date().toISOString().slice(0, 10);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="audit-${day}.csv"`)
          .header('cache-control', 'no-store')
          .send(Readable.from(service.exportCsv(request.principal!.organisationId, request.query)));
      },
    });
  };
}
