import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  idParamsSchema,
  pipelineCreateSchema,
  pipelineDetailSchema,
  pipelineInstantiateSchema,
  pipelineListQuerySchema,
  pipelineListSchema,
  pipelineUpdateSchema,
  pipelineVersionParamsSchema,
  pipelineVersionSchema,
  type PipelineKind,
} from '@slipway/contracts';
import { actorIdOf, inWorkspace } from '../../platform/auth/principal.js';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
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
    pipelines.list({
      summary: `List ${word}s; filter by name; X-Total-Count has the total`,
      querystring: pipelineListQuerySchema,
      response: pipelineListSchema,
      handler: (ws, query) => service.list(ws, kind, query),
    });
    pipelines.get({
      summary: `One ${word} with its current definition and versions`,
      response: pipelineDetailSchema,
      handler: (ws, id) => service.get(ws, kind, id),
    });
    app.get(
      `${base}/:id/versions/:version`,
      {
        config: { access: inWorkspace(`${resource}:view`) },
        schema: {
          tags,
          summary: `One version of a ${word}`,
          params: pipelineVersionParamsSchema,
          response: { 200: pipelineVersionSchema },
        },
      },
      async (request) =>
        service.version(request.workspaceId!, kind, request.params.id, request.params.version),
    );
    app.get(
      `${base}/:id/export`,
      {
        config: { access: inWorkspace(`${resource}:view`) },
        schema: {
          tags,
          summary: `The current definition of a ${word}, exactly as it was given`,
          params: idParamsSchema,
          produces: ['application/yaml', 'application/json'],
        },
      },
      async (request, reply) => {
        const found = await service.exportDefinition(request.workspaceId!, kind, request.params.id);
        const file = `${found.name.replace(/[^\w.-]+/g, '-')}.${found.format}`;
        return reply
          .type(CONTENT_TYPES[found.format])
          .header('content-disposition', `attachment; filename="${file}"`)
          .send(found.text);
      },
    );
    pipelines.create({
      summary: `Create a ${word} from a Tekton Pipeline (YAML or JSON, validated, stored as given)`,
      body: pipelineCreateSchema,
      response: pipelineDetailSchema,
      handler: (ws, body, request) => service.create(ws, kind, body, actorIdOf(request.principal)),
      detail: (created) => ({ name: created.name }),
    });
    pipelines.update({
      summary: `Change a ${word}; a new definition becomes the next version`,
      body: pipelineUpdateSchema,
      response: pipelineDetailSchema,
      handler: (ws, id, body, request) => service.update(ws, kind, id, body, actorIdOf(request.principal)),
    });
    pipelines.remove({
      summary: `Delete a ${word} (refused while a run is pending or in progress)`,
      handler: (ws, id) => service.remove(ws, kind, id),
    });
    if (kind !== 'template') return;
    app.post(
      `${base}/:id/instantiate`,
      {
        config: {
          access: inWorkspace('pipelines:create'),
          auditAction: 'pipeline.create',
          auditTarget: { type: 'pipeline', id: 'response.id' },
        },
        schema: {
          tags,
          summary: 'Create a pipeline from this template',
          params: idParamsSchema,
          body: pipelineInstantiateSchema,
          response: { 201: pipelineDetailSchema },
        },
      },
      async (request, reply) => {
        const created = await service.instantiate(
          request.workspaceId!,
          request.params.id,
          request.body.name,
          actorIdOf(request.principal),
        );
        request.audit.detail = { name: created.name, templateId: request.params.id };
        return reply.code(201).send(created);
      },
    );
  };
}
