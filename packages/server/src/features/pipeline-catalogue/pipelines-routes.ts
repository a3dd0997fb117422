import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
import { withTotalCount } from '../../platform/database/paging.js';
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
    app.get(
      base,
      {
        config: { access: inWorkspace(`${resource}:view`) },
        schema: {
          tags,
          summary: `List ${word}s; filter by name; X-Total-Count has the total`,
          querystring: pipelineListQuerySchema,
          response: { 200: pipelineListSchema },
        },
      },
      async (request, reply) => {
        const { rows, total } = await service.list(request.workspaceId!, kind, request.query);
        return withTotalCount(reply, rows, total);
      },
    );
    app.get(
      `${base}/:id`,
      {
        config: { access: inWorkspace(`${resource}:view`) },
        schema: {
          tags,
          summary: `One ${word} with its current definition and versions`,
          params: idParamsSchema,
          response: { 200: pipelineDetailSchema },
        },
      },
      async (request) => service.get(request.workspaceId!, kind, request.params.id),
    );
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
    app.post(
      base,
      {
        config: {
          access: inWorkspace(`${resource}:create`),
          auditAction: `${audit}.create`,
          auditTarget: { type: kind, id: 'response.id' },
        },
        schema: {
          tags,
          summary: `Create a ${word} from a Tekton Pipeline (YAML or JSON, validated, stored as given)`,
          body: pipelineCreateSchema,
          response: { 201: pipelineDetailSchema },
        },
      },
      async (request, reply) => {
        const created = await service.create(
          request.workspaceId!,
          kind,
          request.body,
          actorIdOf(request.principal),
        );
        request.audit.detail = { name: created.name };
        return reply.code(201).send(created);
      },
    );
    app.put(
      `${base}/:id`,
      {
        config: {
          access: inWorkspace(`${resource}:edit`),
          auditAction: `${audit}.update`,
          auditTarget: { type: kind, id: 'params.id' },
        },
        schema: {
          tags,
          summary: `Change a ${word}; a new definition becomes the next version`,
          params: idParamsSchema,
          body: pipelineUpdateSchema,
          response: { 200: pipelineDetailSchema },
        },
      },
      async (request) =>
        service.update(
          request.workspaceId!,
          kind,
          request.params.id,
          request.body,
          actorIdOf(request.principal),
        ),
    );
    app.delete(
      `${base}/:id`,
      {
        config: {
          access: inWorkspace(`${resource}:delete`),
          auditAction: `${audit}.delete`,
          auditTarget: { type: kind, id: 'params.id' },
        },
        schema: {
          tags,
          summary: `Delete a ${word} (refused while a run is pending or in progress)`,
          params: idParamsSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await service.remove(request.workspaceId!, kind, request.params.id);
        return reply.code(204).send(null);
      },
    );
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
