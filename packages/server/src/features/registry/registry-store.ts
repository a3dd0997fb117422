import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, gt, sql } from 'drizzle-orm';
import type { RegistryImageListQuery, RegistryTagListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { firstRow } from '../../platform/database/rows.js';
import {
  registryBlobs,
  registryManifests,
  registryRepositories,
  registryTags,
  registryUploads,
} from '../../platform/database/schema.js';
import { totalOf } from '../../platform/database/paging.js';
import { findByName, listPage } from '../../platform/database/workspace-rows.js';
import type {
  RegistryImageRow,
  RegistryRepositoryRow,
  RegistryStore,
  RegistryTagRow,
} from './registry-store-type.js';

/** How many tags a repository has, and the bytes of the blobs linked to it (each once). */
const tagCount = sql<number>`(SELECT count(*) FROM ${registryTags} WHERE ${registryTags.repositoryId} = ${registryRepositories.id})`;
const blobBytes = sql<number>`(SELECT coalesce(sum(${registryBlobs.size}), 0) FROM ${registryBlobs} WHERE ${registryBlobs.repositoryId} = ${registryRepositories.id})`;
const IMAGE_SORTS = {
  name: registryRepositories.name,
  tagCount,
  lastPushedAt: registryRepositories.updatedAt,
  size: blobBytes,
};

/** SQL for the registry's repositories and what each holds. */
export class SqlRegistryStore implements RegistryStore {
  constructor(private readonly db: AppDb) {}

  repository(workspaceId: string, name: string): Promise<RegistryRepositoryRow | null> {
    return findByName(this.db, registryRepositories, workspaceId, name);
  }

  async ensureRepository(workspaceId: string, name: string): Promise<RegistryRepositoryRow> {
    await this.db
      .insert(registryRepositories)
      .values({ id: randomUUID(), workspaceId, name })
      .onConflictDoNothing();
    return (await this.repository(workspaceId, name))!;
  }

  async blob(repositoryId: string, digest: string): Promise<number | null> {
    const row = await firstRow(
      this.db,
      registryBlobs,
      and(eq(registryBlobs.repositoryId, repositoryId), eq(registryBlobs.digest, digest)),
    );
    return row?.size ?? null;
  }

  async linkBlob(repositoryId: string, digest: string, size: number): Promise<void> {
    await this.db.insert(registryBlobs).values({ repositoryId, digest, size }).onConflictDoNothing();
  }

  async manifest(repositoryId: string, digest: string) {
    const row = await firstRow(
      this.db,
      registryManifests,
      and(eq(registryManifests.repositoryId, repositoryId), eq(registryManifests.digest, digest)),
    );
    return row ? { mediaType: row.mediaType, size: row.size } : null;
  }

  async putManifest(repositoryId: string, digest: string, mediaType: string, size: number): Promise<void> {
    await this.db
      .insert(registryManifests)
      .values({ repositoryId, digest, mediaType, size })
      .onConflictDoNothing();
    await this.db
      .update(registryRepositories)
      .set({ updatedAt: new Date() })
      .where(eq(registryRepositories.id, repositoryId));
  }

  async deleteManifest(repositoryId: string, digest: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx
        .delete(registryTags)
        .where(and(eq(registryTags.repositoryId, repositoryId), eq(registryTags.digest, digest)));
      const gone = await tx
        .delete(registryManifests)
        .where(and(eq(registryManifests.repositoryId, repositoryId), eq(registryManifests.digest, digest)))
        .returning({ digest: registryManifests.digest });
      return gone.length > 0;
    });
  }

  async tag(repositoryId: string, tag: string): Promise<string | null> {
    const row = await firstRow(
      this.db,
      registryTags,
      and(eq(registryTags.repositoryId, repositoryId), eq(registryTags.tag, tag)),
    );
    return row?.digest ?? null;
  }

  async setTag(repositoryId: string, tag: string, digest: string): Promise<void> {
    const updatedAt = new Date();
    await this.db
      .insert(registryTags)
      .values({ repositoryId, tag, digest, updatedAt })
      .onConflictDoUpdate({
        target: [registryTags.repositoryId, registryTags.tag],
        set: { digest, updatedAt },
      });
  }

  async tags(repositoryId: string, n: number, last?: string): Promise<string[]> {
    const rows = await this.db
      .select({ tag: registryTags.tag })
      .from(registryTags)
      .where(and(eq(registryTags.repositoryId, repositoryId), last ? gt(registryTags.tag, last) : undefined))
      .orderBy(asc(registryTags.tag))
      .limit(n);
    return rows.map((r) => r.tag);
  }

  recentTags(repositoryId: string, limit: number) {
    return this.db
      .select({ tag: registryTags.tag, digest: registryTags.digest, updatedAt: registryTags.updatedAt })
      .from(registryTags)
      .where(eq(registryTags.repositoryId, repositoryId))
      .orderBy(desc(registryTags.updatedAt), asc(registryTags.tag))
      .limit(limit);
  }

  async images(workspaceId: string, query: RegistryImageListQuery) {
    const select = this.db
      .select({
        name: registryRepositories.name,
        lastPushedAt: registryRepositories.updatedAt,
        tagCount: tagCount.mapWith(Number),
        size: blobBytes.mapWith(Number),
      })
      .from(registryRepositories)
      .$dynamic();
    const page = await listPage(this.db, registryRepositories, {
      workspaceId,
      query,
      nameColumn: registryRepositories.name,
      sorts: IMAGE_SORTS,
      fallbackSort: registryRepositories.name,
      tiebreak: asc(registryRepositories.name),
      select,
    });
    return page as { rows: RegistryImageRow[]; total: number };
  }

  async tagPage(repositoryId: string, query: RegistryTagListQuery) {
    const where = eq(registryTags.repositoryId, repositoryId);
    const rows: RegistryTagRow[] = await this.db
      .select({
        tag: registryTags.tag,
        digest: registryTags.digest,
        mediaType: registryManifests.mediaType,
        pushedAt: registryTags.updatedAt,
      })
      .from(registryTags)
      .innerJoin(
        registryManifests,
        and(
          eq(registryManifests.repositoryId, registryTags.repositoryId),
          eq(registryManifests.digest, registryTags.digest),
        ),
      )
      .where(where)
      .orderBy(desc(registryTags.updatedAt), asc(registryTags.tag))
      .offset(query._start)
      .limit(query._end - query._start);
    const total = totalOf(await this.db.select({ n: count() }).from(registryTags).where(where));
    return { rows, total };
  }

  async deleteTag(repositoryId: string, tag: string): Promise<string | null> {
    const gone = await this.db
      .delete(registryTags)
      .where(and(eq(registryTags.repositoryId, repositoryId), eq(registryTags.tag, tag)))
      .returning({ digest: registryTags.digest });
    return gone[0]?.digest ?? null;
  }

  async upload(id: string) {
    const row = await firstRow(this.db, registryUploads, eq(registryUploads.id, id));
    return row ? { repositoryId: row.repositoryId, size: row.size } : null;
  }

  async createUpload(id: string, repositoryId: string): Promise<void> {
    await this.db.insert(registryUploads).values({ id, repositoryId });
  }

  async uploadSize(id: string, size: number): Promise<void> {
    await this.db.update(registryUploads).set({ size }).where(eq(registryUploads.id, id));
  }

  async deleteUpload(id: string): Promise<void> {
    await this.db.delete(registryUploads).where(eq(registryUploads.id, id));
  }
}
