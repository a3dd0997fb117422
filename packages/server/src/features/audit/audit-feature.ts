import type { AppDb } from '../../platform/database/database.js';
import { auditRoutes } from './audit-routes.js';
import { AuditService } from './audit-service.js';
import { SqlAuditStore } from './audit-store.js';

/** The one place the audit trail's read side is wired. */
export function auditFeature(db: AppDb) {
  return auditRoutes(new AuditService(new SqlAuditStore(db)));
}
