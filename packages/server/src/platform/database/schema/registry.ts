import { bigint, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { created, id, parentRef, stamped, updated } from './columns.js';
import { workspaceRef } from './identity.js';

/**
 * The registry Slipway serves itself (issue 12, decision 031): image repositories of a
 * workspace, and which content-addressed blobs, manifests and tags each holds. The bytes live
 * under the data directory, once per digest; a repository reaches only the digests linked to it.
 */

export const registryRepositories = pgTable(
  'registry_repositories',
  {
    id: id(),
    workspaceId: workspaceRef(),
    /** the path below the workspace: `orders`, `team/orders` */
    name: text('name').notNull(),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('registry_repositories_ws_name').on(t.workspaceId, t.name)],
);

const repositoryRef = () => parentRef('repository_id', () => registryRepositories.id);

/** A blob (layer or config) pushed to, or mounted into, a repository. */
export const registryBlobs = pgTable(
  'registry_blobs',
  {
    repositoryId: repositoryRef(),
    digest: text('digest').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.repositoryId, t.digest] })],
);

/** A manifest or index of a repository, by digest. */
export const registryManifests = pgTable(
  'registry_manifests',
  {
    repositoryId: repositoryRef(),
    digest: text('digest').notNull(),
    mediaType: text('media_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.repositoryId, t.digest] })],
);

/** A tag names one manifest of its repository. */
export const registryTags = pgTable(
  'registry_tags',
  {
    repositoryId: repositoryRef(),
    tag: text('tag').notNull(),
    digest: text('digest').notNull(),
    updatedAt: stamped('updated_at'),
  },
  (t) => [primaryKey({ columns: [t.repositoryId, t.tag] })],
);

/** An upload in progress: its bytes so far are in a file named by its id. */
export const registryUploads = pgTable('registry_uploads', {
  id: id(),
  repositoryId: repositoryRef(),
  size: bigint('size', { mode: 'number' }).notNull().default(0),
  createdAt: created(),
});
