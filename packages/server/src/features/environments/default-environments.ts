import { randomUUID } from 'node:crypto';
import { DEFAULT_ENVIRONMENTS } from '@slipway/contracts';
import type { environments } from '../../platform/database/schema.js';

/**
 * The rows every new workspace starts with: development, staging and production, with no cluster
 * yet. Inserted in the same transaction as the workspace (auth sign-up and the organisations
 * feature call this), so a workspace never exists without them.
 */
export function defaultEnvironmentRows(workspaceId: string): Array<typeof environments.$inferInsert> {
  return DEFAULT_ENVIRONMENTS.map((e) => ({
    id: randomUUID(),
    workspaceId,
    name: e.name,
    type: e.type,
    description: e.description,
  }));
}
