import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MESSAGES, type ErrorResponse } from '@slipway/contracts';
import { AppError, TooManyRequestsError } from './errors.js';

/** Every 429 says when to come back, in whole seconds (at least 1). */
function retryAfter(reply: FastifyReply, error: unknown) {
  const seconds = error instanceof TooManyRequestsError ? error.retryAfterSeconds : 1;
  reply.header('retry-after', String(seconds));
}

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
  // A 429 answered without an error (reply.code(429)) still says when to come back.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '1');
    return payload;
  });
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
    if ((error as { statusCode?: number }).statusCode === 429) retryAfter(reply, error);
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
