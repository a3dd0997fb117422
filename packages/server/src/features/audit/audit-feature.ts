import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import { auditRoutes } from './audit-routes.js';
import { AuditService } from './audit-service.js';
import { SqlAuditStore } from './audit-store.js';

export interface AuditFeatureDeps {
  db: AppDb;
}

export interface AuditExports {
  /** records audit events: for the audit trail on every route (app.ts), pod streams and OpenID Connect */
  store: SqlAuditStore;
}

/** The one place the audit trail's store and read side are wired. */
export function createAuditFeature(deps: AuditFeatureDeps): Feature<AuditExports> {
  const store = new SqlAuditStore(deps.db);
  return { name: 'audit', plugin: auditRoutes(new AuditService(store)), exports: { store } };
}
