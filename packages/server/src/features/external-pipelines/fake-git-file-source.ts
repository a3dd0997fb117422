import { createHash } from 'node:crypto';
import {
  GitReadError,
  type GitCredentials,
  type GitFile,
  type GitFileLocation,
  type GitFileSource,
} from './git-file-reader.js';

/**
 * Repositories in memory: files by (url, revision, path), with the GitReadError failures the git
 * CLI reader answers (repository, revision, file). A repository added with a token wants it.
 */
export class FakeGitFileSource implements GitFileSource {
  private readonly repositories = new Map<
    string,
    { token?: string; revisions: Map<string, Map<string, string>> }
  >();
  /** every read, with the credentials it was given */
  readonly reads: Array<{ location: GitFileLocation; credentials: GitCredentials | null }> = [];

  put(url: string, revision: string, path: string, text: string, options: { token?: string } = {}): void {
    const repo = this.repositories.get(url) ?? { token: options.token, revisions: new Map() };
    const files = repo.revisions.get(revision) ?? new Map<string, string>();
    files.set(path, text);
    repo.revisions.set(revision, files);
    this.repositories.set(url, repo);
  }

  async read(location: GitFileLocation, credentials: GitCredentials | null): Promise<GitFile> {
    this.reads.push({ location, credentials });
    const repo = this.repositories.get(location.url);
    const token = credentials && 'token' in credentials ? credentials.token : undefined;
    if (!repo || (repo.token !== undefined && repo.token !== token))
      throw new GitReadError(`The repository ${location.url} could not be read`, 'repository');
    const files = repo.revisions.get(location.revision);
    if (!files) throw new GitReadError(`Revision ${location.revision} not found`, 'revision');
    const text = files.get(location.path);
    if (text === undefined)
      throw new GitReadError(`${location.path} not found at ${location.revision}`, 'file');
    return { text, commit: createHash('sha1').update(text).digest('hex') };
  }
}
