import path from 'node:path';
import type { AppDb } from '../../platform/database/database.js';
import { GitUrlPolicy } from '../../platform/git-url-policy.js';
import type { PipelineCatalogue } from '../pipeline-catalogue/pipeline-catalogue-feature.js';
import { PipelinesStore } from '../pipeline-catalogue/pipelines-store.js';
import { externalPipelineRoutes } from './external-pipelines-routes.js';
import { ExternalPipelinesService, type TokenSource } from './external-pipelines-service.js';
import { ExternalPipelinesStore } from './external-pipelines-store.js';
import { GitCliFileSource, type GitFileSource } from './git-file-reader.js';

export interface ExternalPipelinesDeps {
  db: AppDb;
  catalogue: Pick<PipelineCatalogue, 'pipelines'>;
  /** the secrets feature's reader: a source's token or SSH key */
  secrets: TokenSource;
  /** scratch clones go under <dataDir>/external-pipelines */
  dataDir: string;
  git?: GitFileSource;
  /** SLIPWAY_GIT_ALLOW; by default file:// and internal addresses are refused */
  gitPolicy?: GitUrlPolicy;
}

/** The one place external pipelines are wired: store, service (git CLI), routes. */
export function externalPipelinesFeature(deps: ExternalPipelinesDeps) {
  const scratchRoot = path.join(deps.dataDir, 'external-pipelines');
  const git =
    deps.git ??
    new GitCliFileSource({
      scratchRoot,
    });
  const service = new ExternalPipelinesService(
    new ExternalPipelinesStore(deps.db),
    new PipelinesStore(deps.db),
    deps.catalogue.pipelines,
    git,
    deps.secrets,
    deps.gitPolicy ?? new GitUrlPolicy(),
  );
  return { service, routes: externalPipelineRoutes(service), scratchRoot };
}
