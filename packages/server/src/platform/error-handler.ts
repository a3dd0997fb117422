import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MESSAGES, type ErrorResponse } from '@slipway/contracts';
import { AppError } from './errors.js';

function body(
  request: FastifyRequest,
  statusCode: number,
  message: string,
  details?: ErrorResponse['details'],
): ErrorResponse {
  return {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    message,
    requestId: String(request.id),
    ...(details ? { details } : {}),
  };
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  statusCode: number,
  message: string,
  details?: ErrorResponse['details'],
) {
  return reply
    .code(statusCode)
    .type('application/json; charset=utf-8')
    .send(body(request, statusCode, message, details));
}

/**
 * The one place errors become HTTP. 4xx keep their message; 5xx details are logged with the
 * request id and hidden behind the spec's default message.
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((v) => {
        const where = error.validationContext ?? 'request';
        const p = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
        return { path: p ? `${where}.${p}` : where, message: v.message ?? 'is invalid' };
      });
      const first = details[0];
      return sendError(
        request,
        reply,
        400,
        first ? `${first.path}: ${first.message}` : 'Invalid request',
        details,
      );
    }
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      const message = error.statusCode >= 500 ? MESSAGES.somethingWentWrongDefault : error.message;
      return sendError(request, reply, error.statusCode, message, error.details);
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return sendError(request, reply, status, error.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, 500, MESSAGES.somethingWentWrongDefault);
  });
}
