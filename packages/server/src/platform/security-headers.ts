import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { RuntimeSettings } from '@slipway/contracts';

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

const HEAP_ORIGINS = [
  'https://cdn.us.heap-api.com',
  'https://cdn.heapanalytics.com',
  'https://heapanalytics.com',
];

/**
 * Security headers with a Content-Security-Policy that admits exactly the third parties the
 * runtime settings switch on (Sentry's DSN host, the Unleash proxy, Heap).
 */
export async function registerSecurityHeaders(app: FastifyInstance, settings: RuntimeSettings) {
  const connect = ["'self'", 'ws:', 'wss:'];
  const scripts = ["'self'"];
  if (settings.sentry.enabled) {
    const o = originOf(settings.sentry.dsn);
    if (o) connect.push(o);
  }
  if (settings.unleash.enabled) {
    const o = originOf(settings.unleash.url);
    if (o) connect.push(o);
  }
  if (settings.heapAnalytics.enabled) {
    connect.push(...HEAP_ORIGINS);
    scripts.push(...HEAP_ORIGINS);
  }
  await app.register(helmet, {
    // Swagger UI sets its own CSP on its pages (staticCSP).
    enableCSPNonces: false,
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: scripts,
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: connect,
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // The app is served over plain HTTP on loopback by default; HSTS belongs to the TLS proxy.
    strictTransportSecurity: false,
  });
}
