import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './error-handler.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

function wantsPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?')[0] ?? '/';
  if (pathname === '/api' || pathname.startsWith('/api/')) return false;
  // A missing asset (has a file extension) is a 404, never the page.
  return path.extname(pathname) === '';
}

/**
 * Serves the built web app: hashed assets cached for a year, everything else revalidated,
 * pre-compressed .br/.gz variants when the build made them, and an SPA fallback to
 * index.html for client routes (never for /api/*).
 */
export async function registerWebApp(app: FastifyInstance, webDir: string) {
  const indexFile = path.join(webDir, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: webDir,
      prefix: '/',
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        const rel = path.relative(webDir, filePath);
        res.setHeader('Cache-Control', rel.startsWith(`assets${path.sep}`) ? IMMUTABLE : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    if (wantsPage(request)) {
      if (built) {
        return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
      }
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(
          `The web app is not built (looked for ${indexFile}). Run "npm run build:web" or "npm start".\n`,
        );
    }
    return sendError(request, reply, 404, `Route ${request.method} ${request.url.split('?')[0]} not found`);
  });
}
