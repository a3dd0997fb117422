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
  /** the largest blob (layer) taken, in bytes */
  maxBlobBytes?: number;
}

export interface RegistryExports {
  store: SqlRegistryStore;
  blobs: BlobStorage;
}

const GIB = 1024 * 1024 * 1024;

/** The one place the registry Slipway serves at /v2/ is wired (decision 031). */
export function createRegistryFeature(deps: RegistryFeatureDeps): Feature<RegistryExports> {
  const store = new SqlRegistryStore(deps.db);
  const blobs = new BlobStorage(path.join(deps.dataDir, 'registry'), deps.maxBlobBytes ?? 10 * GIB);
  return {
    name: 'registry',
    plugin: registryRoutes({ store, blobs, access: deps.access, audit: deps.audit }),
    exports: { store, blobs },
  };
}
