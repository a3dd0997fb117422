import path from 'node:path';
import type { RegistryInfo } from '@slipway/contracts';
import type { AuditRecorder } from '../../platform/audit-recorder.js';
import type { AccessStore } from '../../platform/auth/access-store-type.js';
import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import { BlobStorage } from './blob-storage.js';
import { registryApiRoutes } from './registry-api-routes.js';
import { registryRoutes } from './registry-routes.js';
import { SqlRegistryStore } from './registry-store.js';

export interface RegistryFeatureDeps {
  db: AppDb;
  dataDir: string;
  access: AccessStore;
  audit: AuditRecorder;
  /** the server's address: images in this registry are named `<its host>/<workspace>/<path>` */
  publicUrl: string;
  /** the largest blob (layer) taken, in bytes */
  maxBlobBytes?: number;
}

export interface RegistryExports {
  store: SqlRegistryStore;
  blobs: BlobStorage;
  /** `<host>/<workspace id>`: where a workspace's images are pushed */
  prefix(workspaceId: string): string;
  /** The registry as a workspace sees it: host, prefix, plain HTTP or not, how to log in. */
  info(workspaceId: string): RegistryInfo;
  /** An image's newest tags when it is in this registry and workspace; [] for an image elsewhere. */
  imageTags(
    workspaceId: string,
    image: string,
  ): Promise<Array<{ tag: string; digest: string; updatedAt: string }>>;
}

const GIB = 1024 * 1024 * 1024;

/**
 * The one place the registry Slipway serves at /v2/, and its JSON view at /api/registry, is wired
 * (decision 031).
 */
export function createRegistryFeature(deps: RegistryFeatureDeps): Feature<RegistryExports> {
  const store = new SqlRegistryStore(deps.db);
  const blobs = new BlobStorage(path.join(deps.dataDir, 'registry'), deps.maxBlobBytes ?? 10 * GIB);
  const host = new URL(deps.publicUrl).host;
  const prefix = (workspaceId: string) => `${host}/${workspaceId}`;
  // Over plain HTTP buildah must be told not to insist on TLS (decision 031's limits).
  const insecure = deps.publicUrl.startsWith('http:');
  const login = `buildah login${insecure ? ' --tls-verify=false' : ''} -u x ${host}`;
  const info = (workspaceId: string): RegistryInfo => ({
    host,
    prefix: prefix(workspaceId),
    insecure,
    login,
  });
  const imageTags: RegistryExports['imageTags'] = async (workspaceId, image) => {
    const own = `${prefix(workspaceId)}/`;
    if (!image.startsWith(own)) return [];
    const repo = await store.repository(workspaceId, image.slice(own.length));
    if (!repo) return [];
    const tags = await store.recentTags(repo.id, 50);
    return tags.map((t) => ({ ...t, updatedAt: t.updatedAt.toISOString() }));
  };
  return {
    name: 'registry',
    // Two plugins: /v2/ reads every body as a stream and answers distribution's errors, which
    // must not reach the JSON API the Registries page reads.
    plugin: async (app) => {
      await app.register(registryRoutes({ store, blobs, access: deps.access, audit: deps.audit }));
      await app.register(registryApiRoutes({ store, blobs, info }));
    },
    exports: { store, blobs, prefix, info, imageTags },
  };
}
