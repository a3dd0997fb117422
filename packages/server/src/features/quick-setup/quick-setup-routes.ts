import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  appTemplateListSchema,
  quickSetupCreateSchema,
  quickSetupQuerySchema,
  quickSetupRegistriesSchema,
  quickSetupRepositoryListSchema,
  quickSetupResultSchema,
} from '@slipway/contracts';
import type { Permission } from '@slipway/contracts';
import { holds } from '../../platform/auth/grants.js';
import { actorIdOf, inWorkspace } from '../../platform/auth/principal.js';
import { NotAllowedError } from '../../platform/errors.js';
import { routes } from '../../platform/routes.js';
import type { QuickSetupService } from './quick-setup-service.js';

/**
 * What quick setup makes besides the application, each of which the caller must be allowed to
 * make too: the repository, the credentials' secrets (one holding a registry push token), the
 * pipeline and its first run.
 */
const ALSO_NEEDED: Permission[] = [
  'repositories:create',
  'secrets:create',
  'registries:edit',
  'pipelines:create',
  'pipelines:execute',
];

/** Quick setup's calls (spec §7): the app templates, what it can use, and the one that makes it all. */
export function quickSetupRoutes(service: QuickSetupService): FastifyPluginAsyncZod {
  return async (app) => {
    const api = routes(app, ['quick-setup']);
    api.get('/api/admin/appaccelerator/types', {
      summary: 'The app templates: each a service, its test, Dockerfile, manifests and pipeline (file list)',
      access: inWorkspace('applications:view'),
      response: appTemplateListSchema,
      handler: () => service.templates(),
    });
    api.get('/api/admin/quicksetup/repositories', {
      summary: 'Where quick setup may put the code: a new hosted repository, or one of the workspace’s',
      access: inWorkspace('repositories:view'),
      response: quickSetupRepositoryListSchema,
      handler: (request) => service.repositories(request.workspaceId!),
    });
    api.get('/api/admin/quicksetup/registries', {
      summary: 'Where quick setup pushes images: Slipway’s registry (outside providers: none yet)',
      access: inWorkspace('registries:view'),
      response: quickSetupRegistriesSchema,
      handler: (request) => service.registries(request.workspaceId!),
    });
    api.post('/api/admin/quicksetup/createonboardingresources', {
      summary:
        'From an app template: a hosted repository with its files, the credentials, the pipeline and the application, then the first run; nothing stays when a step fails',
      access: inWorkspace('applications:create'),
      auditAction: 'quicksetup.create',
      auditTarget: { type: 'application', id: 'response.applicationId' },
      querystring: quickSetupQuerySchema,
      body: quickSetupCreateSchema,
      response: quickSetupResultSchema,
      status: 201,
      handler: async (request) => {
        if (ALSO_NEEDED.some((permission) => !holds(request.grants ?? [], permission)))
          throw new NotAllowedError();
        const principal = request.principal!;
        const result = await service.create(request.workspaceId!, request.query.id, request.body, {
          actorId: actorIdOf(principal),
          organisationId: principal.organisationId,
        });
        request.audit.detail = {
          template: result.templateId,
          name: request.body.name,
          repositoryId: result.repositoryId,
          pipelineId: result.pipelineId,
          runId: result.runId,
          secrets: result.secrets,
        };
        return result;
      },
    });
  };
}
