import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import { runLimitRoutes } from './run-limits-routes.js';
import { RunLimitsService } from './run-limits-service.js';
import { SqlRunLimitsStore } from './run-limits-store.js';

/** The one place the admission limits' routes are wired; the run engine's claim reads the same columns. */
export function createRunLimitsFeature(deps: { db: AppDb }): Feature {
  const service = new RunLimitsService(new SqlRunLimitsStore(deps.db));
  return { name: 'run-limits', plugin: runLimitRoutes(service), exports: {} };
}
