import path from 'node:path';
import type { AuditRecorder } from '../../platform/audit-recorder.js';
import type { AccessStore } from '../../platform/auth/access-store-type.js';
import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import { BlobStorage } from './blob-storage.js';
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
  /** An image's newest tags when it is in this registry and workspace; [] for an image elsewhere. */
  imageTags(
    workspaceId: string,
    image: string,
  ): Promise<Array<{ tag: string; digest: string; updatedAt: string }>>;
}

const GIB = 1024 * 1024 * 1024;

/** The one place the registry Slipway serves at /v2/ is wired (decision 031). */
export function createRegistryFeature(deps: RegistryFeatureDeps): Feature<RegistryExports> {
  const store = new SqlRegistryStore(deps.db);
  const blobs = new BlobStorage(path.join(deps.dataDir, 'registry'), deps.maxBlobBytes ?? 10 * GIB);
  const host = new URL(deps.publicUrl).host;
  const prefix = (workspaceId: string) => `${host}/${workspaceId}`;
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
    plugin: registryRoutes({ store, blobs, access: deps.access, audit: deps.audit }),
    exports: { store, blobs, prefix, imageTags },
  };
}
