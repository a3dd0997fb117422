import type { FastifyPluginAsync } from 'fastify';

/**
 * The one shape of a server feature (decision 026). `createXFeature(deps)` builds it from what
 * it is given (it never takes the Fastify app); `plugin` is registered once, in the order of
 * `features/index.ts`, and holds its routes and hooks (an onReady/onClose added in it still runs
 * when the app is ready or closed); `exports` is what other features are given through their deps.
 */
export interface Feature<E = Record<string, never>> {
  name: string;
  plugin: FastifyPluginAsync;
  exports: E;
}
