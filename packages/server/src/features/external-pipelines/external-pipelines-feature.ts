import path from 'node:path';
import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import { GitUrlPolicy } from '../../platform/git-url-policy.js';
import type { PipelineCatalogueExports } from '../pipeline-catalogue/pipeline-catalogue-feature.js';
import { externalPipelineRoutes } from './external-pipelines-routes.js';
import { ExternalPipelinesService, type TokenSource } from './external-pipelines-service.js';
import { SqlExternalPipelinesStore } from './external-pipelines-store.js';
import { GitCliFileSource, type GitFileSource } from './git-file-reader.js';

export interface ExternalPipelinesFeatureDeps {
  db: AppDb;
  /** the pipeline catalogue's service and store: a synced definition becomes a pipeline version */
  catalogue: Pick<PipelineCatalogueExports, 'pipelines' | 'store'>;
  /** the secrets feature's reader: a source's token or SSH key */
  secrets: TokenSource;
  /** scratch clones go under <dataDir>/external-pipelines */
  dataDir: string;
  git?: GitFileSource;
  /** SLIPWAY_GIT_ALLOW; by default file:// and internal addresses are refused */
  gitPolicy?: GitUrlPolicy;
}

export interface ExternalPipelinesExports {
  /** beforeRun: a run of an external pipeline syncs it first (pipeline runs' beforeCreate) */
  service: ExternalPipelinesService;
  scratchRoot: string;
}

/** The one place external pipelines are wired: store, service (git CLI), routes. */
export function createExternalPipelinesFeature(
  deps: ExternalPipelinesFeatureDeps,
): Feature<ExternalPipelinesExports> {
  const scratchRoot = path.join(deps.dataDir, 'external-pipelines');
  const git =
    deps.git ??
    new GitCliFileSource({
      scratchRoot,
    });
  const service = new ExternalPipelinesService(
    new SqlExternalPipelinesStore(deps.db),
    deps.catalogue.store,
    deps.catalogue.pipelines,
    git,
    deps.secrets,
    deps.gitPolicy ?? new GitUrlPolicy(),
  );
  return {
    name: 'external-pipelines',
    plugin: externalPipelineRoutes(service),
    exports: { service, scratchRoot },
  };
}
