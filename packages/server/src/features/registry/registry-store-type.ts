import type { RegistryImageListQuery, RegistryTagListQuery } from '@slipway/contracts';
import type { registryRepositories } from '../../platform/database/schema.js';

export type RegistryRepositoryRow = typeof registryRepositories.$inferSelect;

/** A repository as the Registries page lists it. */
export interface RegistryImageRow {
  name: string;
  lastPushedAt: Date;
  tagCount: number;
  /** bytes of the blobs linked to it, each once */
  size: number;
}

/** A tag with the manifest it names. */
export interface RegistryTagRow {
  tag: string;
  digest: string;
  mediaType: string;
  pushedAt: Date;
}

/** What the registry routes need of storage; SqlRegistryStore implements it. */
export interface RegistryStore {
  repository(workspaceId: string, name: string): Promise<RegistryRepositoryRow | null>;
  /** The repository, made on its first push. */
  ensureRepository(workspaceId: string, name: string): Promise<RegistryRepositoryRow>;
  /** The blob's size when it is linked to the repository, else null. */
  blob(repositoryId: string, digest: string): Promise<number | null>;
  linkBlob(repositoryId: string, digest: string, size: number): Promise<void>;
  manifest(repositoryId: string, digest: string): Promise<{ mediaType: string; size: number } | null>;
  putManifest(repositoryId: string, digest: string, mediaType: string, size: number): Promise<void>;
  /** Removes the manifest and every tag naming it; false when the repository has no such manifest. */
  deleteManifest(repositoryId: string, digest: string): Promise<boolean>;
  tag(repositoryId: string, tag: string): Promise<string | null>;
  setTag(repositoryId: string, tag: string, digest: string): Promise<void>;
  /** Tags in lexical order after `last`, at most `n`. */
  tags(repositoryId: string, n: number, last?: string): Promise<string[]>;
  /** The newest tags with their digests, for the application page. */
  recentTags(
    repositoryId: string,
    limit: number,
  ): Promise<Array<{ tag: string; digest: string; updatedAt: Date }>>;
  /** A page of the workspace's repositories, found by name, with the total of all pages. */
  images(
    workspaceId: string,
    query: RegistryImageListQuery,
  ): Promise<{ rows: RegistryImageRow[]; total: number }>;
  /** A page of a repository's tags, newest first, with the total of all pages. */
  tagPage(
    repositoryId: string,
    query: RegistryTagListQuery,
  ): Promise<{ rows: RegistryTagRow[]; total: number }>;
  /** Removes a tag (its manifest stays); the digest it named, or null when there was no such tag. */
  deleteTag(repositoryId: string, tag: string): Promise<string | null>;
  upload(id: string): Promise<{ repositoryId: string; size: number } | null>;
  createUpload(id: string, repositoryId: string): Promise<void>;
  uploadSize(id: string, size: number): Promise<void>;
  deleteUpload(id: string): Promise<void>;
}
