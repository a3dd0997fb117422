import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { runLimitRequestSchema, runLimitSchema } from '@slipway/contracts';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import type { RunLimitsService } from './run-limits-service.js';

const RULE = 'a whole number from 1 to 100, or null for the default';

/**
 * `/api/workspaces/:id/run-limit` (workspace admins: workspace:edit, audited as workspace.update)
 * and `/api/pipelines/:id/run-limit` (pipelines:edit, audited as pipeline.update).
 */
export function runLimitRoutes(service: RunLimitsService): FastifyPluginAsyncZod {
  return async (app) => {
    const workspaces = resourceRoutes(app, {
      path: '/api/workspaces',
      tags: ['workspaces'],
      scope: WORKSPACE,
      permission: 'workspace',
      audit: 'workspace',
    });
    workspaces.view({
      name: 'run-limit',
      summary: "The workspace's limit on its runs in progress at once (x-workspace-id must name it)",
      response: runLimitSchema,
      handler: (ws, { id }) => service.workspace(ws, id),
    });
    workspaces.action({
      name: 'run-limit',
      method: 'PUT',
      summary: `Set the workspace's limit on its runs in progress at once, across every replica (maxRunsInProgress: ${RULE}, 4)`,
      auditAction: 'workspace.update',
      body: runLimitRequestSchema,
      response: runLimitSchema,
      handler: (ws, id, { maxRunsInProgress }, request) => {
        request.audit.detail = { maxRunsInProgress };
        return service.setWorkspace(ws, id, maxRunsInProgress);
      },
    });

    const pipelines = resourceRoutes(app, {
      path: '/api/pipelines',
      tags: ['pipelines'],
      scope: WORKSPACE,
      permission: 'pipelines',
      audit: 'pipeline',
    });
    pipelines.view({
      name: 'run-limit',
      summary:
        "A pipeline's limit on its runs in progress at once, and the limit in force with its workspace's",
      response: runLimitSchema,
      handler: (ws, { id }) => service.pipeline(ws, id),
    });
    pipelines.action({
      name: 'run-limit',
      method: 'PUT',
      summary: `Set a pipeline's limit on its runs in progress at once, across every replica (maxRunsInProgress: ${RULE}, 2); the workspace's limit still holds`,
      auditAction: 'pipeline.update',
      body: runLimitRequestSchema,
      response: runLimitSchema,
      handler: (ws, id, { maxRunsInProgress }, request) => {
        request.audit.detail = { maxRunsInProgress };
        return service.setPipeline(ws, id, maxRunsInProgress);
      },
    });
  };
}
