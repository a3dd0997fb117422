import type { FastifyPluginAsync } from 'fastify';
import { PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import type { Keys } from '../../platform/keys.js';
import type { PipelineDefinitionLoader } from '../pipeline-catalogue/pipeline-definition-loader.js';
import type { PipelineRunsService } from '../pipeline-runs/pipeline-runs-service.js';
import { hooksReceiverRoutes } from './hooks-receiver-routes.js';
import { webhookRoutes } from './webhooks-routes.js';
import { WebhooksService, type WebhookRunner } from './webhooks-service.js';
import { SqlWebhooksStore } from './webhooks-store.js';

export interface WebhooksFeatureDeps {
  db: AppDb;
  keys: Keys;
  /** reads the pipeline's declared params, so only those get the git-* values */
  loader: Pick<PipelineDefinitionLoader, 'load'>;
  /** the pipeline runs feature's service */
  runs: Pick<PipelineRunsService, 'create'>;
}

export interface WebhooksExports {
  service: WebhooksService;
}

/** The one place webhooks are wired: CRUD routes, the receiver and what starts their runs. */
export function createWebhooksFeature(deps: WebhooksFeatureDeps): Feature<WebhooksExports> {
  const runner: WebhookRunner = {
    async declaredParams(workspaceId, pipelineId) {
      const loaded = await deps.loader.load(workspaceId, pipelineId);
      return new Set((loaded.pipeline.spec.params ?? []).map((p) => p.name));
    },
    async start(workspaceId, pipelineId, params, webhookId, code) {
      const trigger = { kind: 'webhook', id: webhookId, ...code };
      const request = {
        pipelineId,
        params,
        timeoutHours: PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS,
        workspaces: [],
      };
      return deps.runs.create(workspaceId, request, trigger);
    },
  };
  const service = new WebhooksService(new SqlWebhooksStore(deps.db), deps.keys, runner);
  const plugin: FastifyPluginAsync = async (app) => {
    await app.register(webhookRoutes(service));
    await app.register(hooksReceiverRoutes(service));
  };
  return { name: 'webhooks', plugin, exports: { service } };
}
