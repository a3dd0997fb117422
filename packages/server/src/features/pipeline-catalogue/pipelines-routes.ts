import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  pipelineCreateSchema,
  pipelineDetailSchema,
  pipelineInstantiateSchema,
  pipelineListQuerySchema,
  pipelineListSchema,
  pipelineUpdateSchema,
  pipelineVersionParamsSchema,
  pipelineVersionSchema,
  type PipelineCreate,
  type PipelineKind,
  type PipelineListQuery,
  type PipelineUpdate,
} from '@slipway/contracts';
import { actorIdOf } from '../../platform/auth/principal.js';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import { standardRoutes } from '../../platform/standard-routes.js';
import type { PipelinesService } from './pipelines-service.js';

const ROUTES = {
  pipeline: { base: '/api/pipelines', resource: 'pipelines', audit: 'pipeline', word: 'pipeline' },
  template: {
    base: '/api/templates',
    resource: 'pipelineTemplates',
    audit: 'pipelineTemplate',
    word: 'pipeline template',
  },
} as const;

const CONTENT_TYPES = { yaml: 'application/yaml; charset=utf-8', json: 'application/json; charset=utf-8' };

/** The service's methods for pipelines of one kind, as the standard routes call them. */
function ofKind(service: PipelinesService, kind: PipelineKind) {
  return {
    list: (ws: string, query: PipelineListQuery) => service.list(ws, kind, query),
    get: (ws: string, id: string) => service.get(ws, kind, id),
    create: (ws: string, body: PipelineCreate, actorId: string | null) =>
      service.create(ws, kind, body, actorId),
    update: (ws: string, id: string, body: PipelineUpdate, actorId: string | null) =>
      service.update(ws, kind, id, body, actorId),
    remove: (ws: string, id: string) => service.remove(ws, kind, id),
  };
}

/** The routes of pipelines (`/api/pipelines`) or pipeline templates (`/api/templates`). */
export function pipelineRoutes(service: PipelinesService, kind: PipelineKind): FastifyPluginAsyncZod {
  const { base, resource, audit, word } = ROUTES[kind];
  const tags = [kind === 'pipeline' ? 'pipelines' : 'pipeline templates'];
  return async (app) => {
    const pipelines = resourceRoutes(app, {
      path: base,
      tags,
      scope: WORKSPACE,
      permission: resource,
      audit,
      targetType: kind,
    });
    standardRoutes(pipelines, ofKind(service, kind), {
      schemas: {
        query: pipelineListQuerySchema,
        list: pipelineListSchema,
        item: pipelineDetailSchema,
        create: pipelineCreateSchema,
        update: pipelineUpdateSchema,
      },
      summaries: {
        list: `List ${word}s; filter by name; X-Total-Count has the total`,
        get: `One ${word} with its current definition and versions`,
        create: `Create a ${word} from a Tekton Pipeline (YAML or JSON, validated, stored as given)`,
        update: `Change a ${word}; a new definition becomes the next version`,
        remove: `Delete a ${word} (refused while a run is pending or in progress)`,
      },
      createDetail: (created) => ({ name: created.name }),
    });
    pipelines.view({
      name: 'versions/:version',
      summary: `One version of a ${word}`,
      params: pipelineVersionParamsSchema,
      response: pipelineVersionSchema,
      handler: (ws, { id, version }) => service.version(ws, kind, id, version),
    });
    pipelines.view({
      name: 'export',
      summary: `The current definition of a ${word}, exactly as it was given`,
      produces: ['application/yaml', 'application/json'],
      handler: async (ws, { id }, _query, reply) => {
        const found = await service.exportDefinition(ws, kind, id);
        const file = `${found.name.replace(/[^\w.-]+/g, '-')}.${found.format}`;
        return reply
          .type(CONTENT_TYPES[found.format])
          .header('content-disposition', `attachment; filename="${file}"`)
          .send(found.text);
      },
    });
    if (kind !== 'template') return;
    // instantiating a template creates a pipeline: the pipelines' permission, audit action and target
    const asPipeline = resourceRoutes(app, {
      path: base,
      tags,
      scope: WORKSPACE,
      permission: 'pipelines',
      audit: 'pipeline',
    });
    asPipeline.action({
      name: 'instantiate',
      permission: 'create',
      auditAction: 'pipeline.create',
      targetId: 'response.id',
      status: 201,
      summary: 'Create a pipeline from this template',
      body: pipelineInstantiateSchema,
      response: pipelineDetailSchema,
      handler: async (ws, id, { name }, request) => {
        const pipeline = await service.instantiate(ws, id, name, actorIdOf(request.principal));
        request.audit.detail = { name: pipeline.name, templateId: id };
        return pipeline;
      },
    });
  };
}
