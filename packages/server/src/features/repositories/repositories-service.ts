import { randomUUID } from 'node:crypto';
import {
  DEPLOY_TOKEN_PREFIX,
  type DeployToken,
  type DeployTokenCreated,
  type Repository,
  type RepositoryDetail,
  type RepositoryKind,
  type RepositoryListQuery,
  type RepositoryUpdate,
} from '@slipway/contracts';
import { InputError, NotFoundError } from '../../platform/errors.js';
import { GitUrlRefused, type GitUrlPolicy } from '../../platform/git-url-policy.js';
import { hashToken, randomToken } from '../../platform/keys.js';
import { describedRow, givenFields, NamedRowsService } from '../../platform/named-rows.js';
import type { HostedGit } from './hosted-git.js';
import type { DeployTokenRow, RepositoriesStore, RepositoryRow } from './repositories-store-type.js';

export const REPOSITORY_NAME_TAKEN = 'A repository with this name already exists';
export const REPOSITORY_NOT_FOUND = 'Repository not found';
export const DEPLOY_TOKEN_NOT_FOUND = 'Deploy token not found';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A repository to make, as its create schema leaves it. */
export interface RepositoryCreateInput {
  name: string;
  description: string;
  kind: RepositoryKind;
  url?: string;
  defaultBranch: string;
}

export function toDeployToken(row: DeployTokenRow): DeployToken {
  return {
    id: row.id,
    name: row.name,
    access: row.access === 'write' ? 'write' : 'read',
    expiresAt: row.expiresAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Repositories of a workspace. A hosted one is a bare repository on this server, created with
 * its record and removed with it, cloned and pushed over `/git/<workspace>/<name>.git`; an
 * external one is a URL that the git URL policy admits.
 */
export class RepositoriesService extends NamedRowsService<RepositoryRow, RepositoryDetail> {
  constructor(
    private readonly store: RepositoriesStore,
    private readonly git: HostedGit,
    private readonly gitPolicy: GitUrlPolicy,
    /** the server's address, which hosted repositories' clone URLs start with */
    private readonly publicUrl: string,
  ) {
    super(store, { notFound: REPOSITORY_NOT_FOUND, nameTaken: REPOSITORY_NAME_TAKEN }, (row) =>
      this.detail(row),
    );
  }

  /** A hosted repository's smart-HTTP URL. */
  cloneUrl(workspaceId: string, name: string): string {
    return `${this.publicUrl}/git/${workspaceId}/${name}.git`;
  }

  toRepository(row: RepositoryRow): Repository {
    const kind: RepositoryKind = row.kind === 'hosted' ? 'hosted' : 'external';
    return {
      ...describedRow(row),
      kind,
      url: kind === 'hosted' ? this.cloneUrl(row.workspaceId, row.name) : (row.url ?? ''),
      defaultBranch: row.defaultBranch,
      lastPushAt: row.lastPushAt?.toISOString() ?? null,
    };
  }

  /** The repository with a hosted one's branches. */
  private async detail(row: RepositoryRow): Promise<RepositoryDetail> {
    const branches: RepositoryDetail['branches'] = [];
    if (row.kind === 'hosted' && (await this.git.exists(row.workspaceId, row.name))) {
      for (const [ref, commit] of await this.git.refs(row.workspaceId, row.name))
        if (ref.startsWith('refs/heads/')) branches.push({ name: ref.slice('refs/heads/'.length), commit });
    }
    return { ...this.toRepository(row), branches };
  }

  async list(workspaceId: string, query: RepositoryListQuery) {
    const { rows, total } = await this.store.list(workspaceId, query);
    return { rows: rows.map((r) => this.toRepository(r)), total };
  }

  /** Makes the record and, for a hosted repository, its bare repository; neither stays without the other. */
  async create(
    workspaceId: string,
    input: RepositoryCreateInput,
    createdBy: string | null,
  ): Promise<RepositoryDetail> {
    if (input.kind === 'external') await this.checkUrl(input.url ?? '');
    return this.insertNamed(workspaceId, input.name, async (id) => {
      await this.store.insert({
        id,
        workspaceId,
        name: input.name,
        description: input.description,
        kind: input.kind,
        url: input.kind === 'external' ? input.url! : null,
        defaultBranch: input.defaultBranch,
        createdBy,
      });
      if (input.kind !== 'hosted') return;
      try {
        // a directory left by a repository whose record went without it is not reused
        await this.git.remove(workspaceId, input.name);
        await this.git.create(workspaceId, input.name, input.defaultBranch);
      } catch (err) {
        await this.store.delete(id);
        throw err;
      }
    });
  }

  async update(workspaceId: string, id: string, input: RepositoryUpdate): Promise<RepositoryDetail> {
    return this.updateNamed(workspaceId, id, undefined, () =>
      this.store.update(id, givenFields(input, ['description', 'defaultBranch'])),
    );
  }

  /** Deletes the record, its deploy tokens and, for a hosted repository, its git data. */
  override async remove(workspaceId: string, id: string): Promise<void> {
    const row = await this.rows.require(workspaceId, id);
    await this.store.delete(id);
    if (row.kind === 'hosted') await this.git.remove(workspaceId, row.name);
  }

  async tokens(workspaceId: string, id: string): Promise<DeployToken[]> {
    await this.requireHosted(workspaceId, id);
    return (await this.store.tokens(id)).map(toDeployToken);
  }

  async createToken(
    workspaceId: string,
    id: string,
    input: { name: string; access: 'read' | 'write'; expiresInDays: number },
    createdBy: string | null,
  ): Promise<DeployTokenCreated> {
    await this.requireHosted(workspaceId, id);
    const token = `${DEPLOY_TOKEN_PREFIX}${randomToken(24)}`;
    const now = new Date();
    const row = {
      id: randomUUID(),
      repositoryId: id,
      name: input.name,
      access: input.access,
      tokenHash: hashToken(token),
      createdBy,
      expiresAt: new Date(now.getTime() + input.expiresInDays * DAY_MS),
      lastUsedAt: null,
      revokedAt: null,
      createdAt: now,
    };
    await this.store.insertToken(row);
    return { ...toDeployToken(row), token };
  }

  async revokeToken(workspaceId: string, id: string, tokenId: string): Promise<void> {
    await this.requireHosted(workspaceId, id);
    if (!(await this.store.revokeToken(id, tokenId, new Date())))
      throw new NotFoundError(DEPLOY_TOKEN_NOT_FOUND);
  }

  private async checkUrl(url: string): Promise<void> {
    try {
      await this.gitPolicy.check(url);
    } catch (err) {
      if (!(err instanceof GitUrlRefused)) throw err;
      throw new InputError(`url: ${err.message}`, [{ path: 'body.url', message: err.message }]);
    }
  }

  private async requireHosted(workspaceId: string, id: string): Promise<RepositoryRow> {
    const row = await this.rows.require(workspaceId, id);
    if (row.kind !== 'hosted')
      throw new InputError(
        'Deploy tokens are for hosted repositories; an external one uses its host’s credentials',
      );
    return row;
  }
}
