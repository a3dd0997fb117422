import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, created, id, parentRef, updated } from './columns.js';
import { workspaceRef } from './identity.js';

/** Source repositories (issue 12): hosted in Slipway, or external URLs it clones from. */

export const repositories = pgTable(
  'repositories',
  {
    id: id(),
    workspaceId: workspaceRef(),
    /** lowercase letters, numbers and '-': part of a hosted repository's URL */
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** hosted | external */
    kind: text('kind').notNull(),
    /** an external repository's clone URL; null for a hosted one */
    url: text('url'),
    defaultBranch: text('default_branch').notNull().default('main'),
    /** the user or service account that made it */
    createdBy: text('created_by'),
    lastPushAt: at('last_push_at'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('repositories_ws_name').on(t.workspaceId, t.name)],
);

/** A hosted repository's deploy tokens: only their SHA-256 is kept. */
export const repositoryDeployTokens = pgTable(
  'repository_deploy_tokens',
  {
    id: id(),
    repositoryId: parentRef('repository_id', () => repositories.id),
    name: text('name').notNull(),
    /** read | write */
    access: text('access').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdBy: text('created_by'),
    expiresAt: at('expires_at').notNull(),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
    createdAt: created(),
  },
  (t) => [index('repository_deploy_tokens_repo').on(t.repositoryId)],
);
