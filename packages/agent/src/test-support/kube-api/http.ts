import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './types.js';

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
  contentType = 'application/json',
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': contentType,
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain' });
  res.end(text);
}

/** A metav1.Status for a failure, as the apiserver writes it. */
export function failureStatus(e: HttpError): Record<string, unknown> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: e.message,
    reason: e.reason,
    ...(e.details ? { details: e.details } : {}),
    code: e.code,
  };
}

export const notFoundResource = () =>
  new HttpError(404, 'NotFound', 'the server could not find the requested resource');
