import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { AuditRecorder } from '../../platform/audit-recorder.js';
import type { AccessStore } from '../../platform/auth/access-store-type.js';
import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import type { GitUrlPolicy } from '../../platform/git-url-policy.js';
import { gitRoutes, type PushEvent } from './git-routes.js';
import { HostedGit } from './hosted-git.js';
import { repositoryRoutes } from './repositories-routes.js';
import { RepositoriesService } from './repositories-service.js';
import { SqlRepositoriesStore } from './repositories-store.js';

export interface RepositoriesFeatureDeps {
  db: AppDb;
  dataDir: string;
  publicUrl: string;
  gitPolicy: GitUrlPolicy;
  /** the access feature's store: service account tokens open hosted repositories */
  access: AccessStore;
  /** the audit trail: pushes are recorded outside the API's routes */
  audit: AuditRecorder;
  /** the largest push taken, in bytes */
  maxPushBytes?: number;
}

export interface RepositoriesExports {
  service: RepositoriesService;
  store: SqlRepositoriesStore;
  git: HostedGit;
  /** calls `listener` after each push that changed a hosted repository's refs */
  onPush(listener: (event: PushEvent) => void): void;
}

const GIB = 1024 * 1024 * 1024;

/** The one place repositories, hosted git and its smart-HTTP routes are wired. */
export function createRepositoriesFeature(deps: RepositoriesFeatureDeps): Feature<RepositoriesExports> {
  const root = path.join(deps.dataDir, 'git');
  // git's HOME and hooks path: outside every workspace's project root, and left empty
  const emptyDir = path.join(root, '.empty');
  const store = new SqlRepositoriesStore(deps.db);
  const git = new HostedGit(root, emptyDir);
  const service = new RepositoriesService(store, git, deps.gitPolicy, deps.publicUrl);
  const listeners: Array<(event: PushEvent) => void> = [];
  const routes = gitRoutes({
    store,
    git,
    access: deps.access,
    audit: deps.audit,
    backend: { emptyDir, maxBodyBytes: deps.maxPushBytes ?? 2 * GIB, timeoutMs: 30 * 60_000 },
    onPush: (event) => listeners.forEach((listener) => listener(event)),
  });
  return {
    name: 'repositories',
    plugin: async (app) => {
      await mkdir(emptyDir, { recursive: true, mode: 0o700 });
      await app.register(repositoryRoutes(service));
      await app.register(routes);
    },
    exports: { service, store, git, onPush: (listener) => void listeners.push(listener) },
  };
}
