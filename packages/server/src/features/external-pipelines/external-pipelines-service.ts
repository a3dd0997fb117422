import { randomUUID } from 'node:crypto';
import type {
  ExternalPipeline,
  ExternalPipelineCreate,
  ExternalPipelineSource,
  ExternalPipelineSync,
  ExternalPipelineUpdate,
  PipelineListQuery,
} from '@slipway/contracts';
import { isSshRepositoryUrl } from '@slipway/contracts';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { AppError, ConflictError, InputError, NotFoundError } from '../../platform/errors.js';
import { GitUrlPolicy, GitUrlRefused } from '../../platform/git-url-policy.js';
import { parseDefinition } from '../pipelines/definition/parse-document.js';
import { formatOf } from '../pipeline-catalogue/definition-text.js';
import { gitSourceView, toSummary, type PipelinesService } from '../pipeline-catalogue/pipelines-service.js';
import type { PipelineRow } from '../pipeline-catalogue/pipelines-store.js';
import type { PipelinesStore } from '../pipeline-catalogue/pipelines-store-type.js';
import type { ExternalPipelinesStore } from './external-pipelines-store-type.js';
import { GitReadError, type GitCredentials, type GitFileSource } from './git-file-reader.js';

/** How a sync reads a source's secret (the secrets feature's reader). */
export interface TokenSource {
  /** One key; rejects naming the secret and the key when either is missing. */
  value(workspaceId: string, secretName: string, key: string): Promise<string>;
  /** Every key, or null when there is no such secret. */
  values(workspaceId: string, secretName: string): Promise<Record<string, string> | null>;
}

/** The keys of a source's secret over SSH: those of a Kubernetes `kubernetes.io/ssh-auth` Secret. */
export const SSH_KEY_KEY = 'ssh-privatekey';
export const KNOWN_HOSTS_KEY = 'known_hosts';

type StoredSource = ExternalPipeline['source'];

/** The source as stored (jsonb) and shown. */
export function sourceOf(row: PipelineRow): StoredSource {
  return gitSourceView(row.source ?? {});
}

function toView(row: PipelineRow): ExternalPipeline {
  return {
    ...toSummary(row),
    kind: 'pipeline',
    source: sourceOf(row),
    lastSyncedAt: row.lastSyncedAt ? row.lastSyncedAt.toISOString() : null,
    syncError: row.syncError,
  };
}

/** Why a source could not be used, naming the field it is about. */
class SourceProblem extends Error {
  constructor(
    readonly field: 'url' | 'revision' | 'path' | 'secret',
    message: string,
  ) {
    super(message);
  }
}

/** How a run's note explains a failed sync, by the field at fault. */
const WHY: Record<SourceProblem['field'], string> = {
  url: 'the repository could not be read',
  revision: 'the revision was not found in the repository',
  path: 'the pipeline file is missing or not valid',
  secret: "the source's secret could not be read",
};

const sameSource = (a: StoredSource, b: StoredSource) =>
  a.url === b.url && a.revision === b.revision && a.path === b.path && a.secret === b.secret;

/**
 * External pipelines: pipelines whose Tekton definition is a file in a git repository. A sync
 * reads the file with the git CLI, validates it like a pasted definition, and stores a new
 * version only when the text changed. A failed sync keeps the last good version runnable and
 * says why in sync_error. Creating or re-pointing one needs a source that reads and validates.
 */
export class ExternalPipelinesService {
  constructor(
    private readonly store: ExternalPipelinesStore,
    private readonly pipelinesStore: PipelinesStore,
    private readonly pipelines: PipelinesService,
    private readonly git: GitFileSource,
    private readonly secrets: TokenSource,
    private readonly gitPolicy: GitUrlPolicy = new GitUrlPolicy(),
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(workspaceId: string, query: PipelineListQuery) {
    const { rows, total } = await this.store.list(workspaceId, query);
    return { rows: rows.map(toView), total };
  }

  async get(workspaceId: string, id: string): Promise<ExternalPipeline> {
    return toView(await this.require(workspaceId, id));
  }

  async create(
    workspaceId: string,
    input: ExternalPipelineCreate,
    createdBy: string | null,
  ): Promise<ExternalPipeline> {
    const source = stored(input.source);
    const text = await this.readForInput(workspaceId, source);
    if (await this.pipelinesStore.nameTaken(workspaceId, 'pipeline', input.name)) throw nameTaken();
    const id = randomUUID();
    try {
      await this.pipelinesStore.create(
        {
          id,
          workspaceId,
          kind: 'pipeline',
          name: input.name,
          description: input.description ?? '',
          rollbackPipelineId: null,
          source,
          lastSyncedAt: this.now(),
          syncError: null,
          createdBy,
        },
        { definition: text, format: formatOf(text), createdBy },
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    }
    return this.get(workspaceId, id);
  }

  /** Name and description change in place; a new source must read and validate first. */
  async update(
    workspaceId: string,
    id: string,
    input: ExternalPipelineUpdate,
    createdBy: string | null,
  ): Promise<ExternalPipeline> {
    const row = await this.require(workspaceId, id);
    if (input.name !== undefined && input.name.toLowerCase() !== row.name.toLowerCase()) {
      if (await this.pipelinesStore.nameTaken(workspaceId, 'pipeline', input.name, id)) throw nameTaken();
    }
    const source = input.source ? stored(input.source) : undefined;
    const resync = source !== undefined && !sameSource(source, sourceOf(row));
    const text = resync ? await this.readForInput(workspaceId, source) : undefined;
    try {
      await this.pipelinesStore.update(
        id,
        {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(resync ? { source, lastSyncedAt: this.now(), syncError: null } : {}),
        },
        text !== undefined ? { definition: text, format: formatOf(text), createdBy } : undefined,
        { onlyIfChanged: true },
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    }
    return this.get(workspaceId, id);
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    await this.require(workspaceId, id);
    await this.pipelines.remove(workspaceId, 'pipeline', id);
  }

  /** Reads the source again; a new version only when the text changed. Never throws for the source. */
  async sync(workspaceId: string, id: string, createdBy: string | null): Promise<ExternalPipelineSync> {
    const row = await this.require(workspaceId, id);
    const outcome = await this.syncRow(row, createdBy);
    return { outcome: outcome.outcome, pipeline: await this.get(workspaceId, id) };
  }

  /**
   * Before a run of this pipeline starts: sync when it is external. Answers a note for the run
   * when the run falls back to the last synced version; nothing for other pipelines.
   */
  async beforeRun(workspaceId: string, pipelineId: string): Promise<string | undefined> {
    const row = await this.store.get(workspaceId, pipelineId);
    if (!row) return undefined;
    const result = await this.syncRow(row, null);
    if (result.outcome !== 'failed') return undefined;
    return `Sync failed (${WHY[result.field!]}), so this run uses version ${row.currentVersion}, last synced ${
      row.lastSyncedAt ? row.lastSyncedAt.toISOString() : 'never'
    }: ${result.error}`;
  }

  private async syncRow(
    row: PipelineRow,
    createdBy: string | null,
  ): Promise<{ outcome: ExternalPipelineSync['outcome']; error?: string; field?: SourceProblem['field'] }> {
    let text: string;
    try {
      text = await this.read(row.workspaceId, sourceOf(row));
    } catch (error) {
      if (!(error instanceof SourceProblem)) throw error;
      await this.store.recordSyncError(row.id, error.message);
      return { outcome: 'failed', error: error.message, field: error.field };
    }
    const changed = await this.pipelinesStore.update(
      row.id,
      { lastSyncedAt: this.now(), syncError: null },
      { definition: text, format: formatOf(text), createdBy },
      { onlyIfChanged: true },
    );
    return { outcome: changed ? 'changed' : 'unchanged' };
  }

  /** read() for a request: a problem becomes a 400 naming the source field. */
  private async readForInput(workspaceId: string, source: StoredSource): Promise<string> {
    try {
      return await this.read(workspaceId, source);
    } catch (error) {
      if (!(error instanceof SourceProblem)) throw error;
      const path = `body.source.${error.field}`;
      throw new InputError(`source.${error.field}: ${error.message}`, [{ path, message: error.message }]);
    }
  }

  /** The file's text, validated as a pipeline definition; SourceProblem when it cannot be used. */
  private async read(workspaceId: string, source: StoredSource): Promise<string> {
    try {
      await this.gitPolicy.check(source.url);
    } catch (error) {
      if (!(error instanceof GitUrlRefused)) throw error;
      throw new SourceProblem('url', error.message);
    }
    const credentials = source.secret ? await this.credentials(workspaceId, source.url, source.secret) : null;
    let text: string;
    try {
      ({ text } = await this.git.read(source, credentials));
    } catch (error) {
      if (!(error instanceof GitReadError)) throw error;
      const field = { repository: 'url', revision: 'revision', file: 'path' } as const;
      throw new SourceProblem(field[error.failure], error.message);
    }
    // The file's own words never come back: a YAML syntax error says where, not what it read.
    const parsed = parseDefinition(text);
    const syntax = parsed.ok ? undefined : parsed.errors.find((e) => e.rule === 'yaml-syntax');
    if (syntax)
      throw new SourceProblem(
        'path',
        `${source.path} is not a valid pipeline: line ${syntax.line}, column ${syntax.column}: not valid YAML or JSON`,
      );
    try {
      await this.pipelines.check(workspaceId, text);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      throw new SourceProblem('path', `${source.path} is not a valid pipeline: ${error.message}`);
    }
    return text;
  }

  /** Over SSH the secret's private key (and known_hosts, when it has them), otherwise its token. */
  private async credentials(workspaceId: string, url: string, secret: string): Promise<GitCredentials> {
    try {
      if (!isSshRepositoryUrl(url)) return { token: await this.secrets.value(workspaceId, secret, 'token') };
      const values = await this.secrets.values(workspaceId, secret);
      if (!values) throw new Error(`Secret "${secret}" (key "${SSH_KEY_KEY}") not found`);
      const sshKey = values[SSH_KEY_KEY];
      if (!sshKey?.trim())
        throw new Error(`Secret "${secret}" has no key "${SSH_KEY_KEY}" (an SSH URL needs a private key)`);
      const knownHosts = values[KNOWN_HOSTS_KEY];
      return knownHosts?.trim() ? { sshKey, knownHosts } : { sshKey };
    } catch (error) {
      throw new SourceProblem('secret', (error as Error).message);
    }
  }

  private async require(workspaceId: string, id: string): Promise<PipelineRow> {
    const row = await this.store.get(workspaceId, id);
    if (!row) throw new NotFoundError('External pipeline not found');
    return row;
  }
}

function stored(source: ExternalPipelineSource): StoredSource {
  return {
    kind: 'git',
    url: source.url,
    revision: source.revision,
    path: source.path,
    secret: source.secret ?? null,
  };
}

const nameTaken = () => new ConflictError('A pipeline with this name already exists');
