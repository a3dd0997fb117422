import type { FastifyBaseLogger } from 'fastify';
import { PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS, WEBHOOK_RUN_PARAMS } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import type { PipelineDefinitionLoader } from '../pipeline-catalogue/pipeline-definition-loader.js';
import type { PipelineRunsService } from '../pipeline-runs/pipeline-runs-service.js';
import type { RegistryExports } from '../registry/registry-feature.js';
import type { PushEvent } from '../repositories/git-routes.js';
import type { RepositoriesExports } from '../repositories/repositories-feature.js';
import { applicationRoutes } from './applications-routes.js';
import { ApplicationsService } from './applications-service.js';
import { SqlApplicationsStore } from './applications-store.js';

/** The run param an application's image reference (with the commit as its tag) fills in, when declared. */
export const IMAGE_RUN_PARAM = 'image';

export interface ApplicationsFeatureDeps {
  db: AppDb;
  log: FastifyBaseLogger;
  repositories: Pick<RepositoriesExports, 'service' | 'onPush'>;
  registry: Pick<RegistryExports, 'imageTags'>;
  /** reads a pipeline's declared params, so a push fills in only those */
  loader: Pick<PipelineDefinitionLoader, 'load'>;
  runs: Pick<PipelineRunsService, 'create'>;
}

export interface ApplicationsExports {
  service: ApplicationsService;
  store: SqlApplicationsStore;
}

/** The one place applications are wired, and where a push to their repository starts their pipeline. */
export function createApplicationsFeature(deps: ApplicationsFeatureDeps): Feature<ApplicationsExports> {
  const store = new SqlApplicationsStore(deps.db);
  const service = new ApplicationsService(store, {
    repositoryUrl: (workspaceId, repository) =>
      repository.kind === 'hosted'
        ? deps.repositories.service.cloneUrl(workspaceId, repository.name)
        : (repository.url ?? ''),
    imageTags: (workspaceId, image) => deps.registry.imageTags(workspaceId, image),
  });

  /** A push to a branch an application builds from starts the application's pipeline. */
  const onPush = async (event: PushEvent) => {
    const apps = (await store.byRepository(event.repository.id)).filter(
      (a) => a.workspaceId === event.workspaceId,
    );
    for (const app of apps) {
      const change = event.changes.find((c) => c.ref === `refs/heads/${app.branch}` && c.after);
      if (!change || !app.pipelineId) continue;
      try {
        const loaded = await deps.loader.load(app.workspaceId, app.pipelineId);
        const declared = new Set((loaded.pipeline.spec.params ?? []).map((p) => p.name));
        const values: Record<string, string> = {
          [WEBHOOK_RUN_PARAMS.url]: deps.repositories.service.cloneUrl(
            app.workspaceId,
            event.repository.name,
          ),
          [WEBHOOK_RUN_PARAMS.revision]: change.after!,
          [WEBHOOK_RUN_PARAMS.branch]: app.branch,
          [WEBHOOK_RUN_PARAMS.author]: event.pusher,
          [IMAGE_RUN_PARAM]: `${app.image}:${change.after!.slice(0, 12)}`,
        };
        const params = Object.fromEntries(Object.entries(values).filter(([name]) => declared.has(name)));
        const trigger = {
          kind: 'push',
          id: app.id,
          by: event.pusher,
          commit: change.after!,
          branch: app.branch,
          author: event.pusher,
        };
        await deps.runs.create(
          app.workspaceId,
          {
            pipelineId: app.pipelineId,
            params,
            timeoutHours: PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS,
            workspaces: [],
          },
          trigger,
        );
      } catch (err) {
        deps.log.warn({ err, application: app.id }, 'a push could not start the application’s pipeline');
      }
    }
  };
  deps.repositories.onPush((event) => void onPush(event));

  return {
    name: 'applications',
    plugin: applicationRoutes(service),
    exports: { service, store },
  };
}
