import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A file to commit: its text or bytes, and whether it is executable. */
export interface SeedFile {
  content: string | Buffer;
  executable?: boolean;
}

export interface CommitAuthor {
  name: string;
  email: string;
}

/**
 * The bare repositories Slipway hosts, one directory per workspace below `root`
 * (`<root>/<workspaceId>/<name>.git`). Git runs with no system or user configuration and no hooks.
 */
export class HostedGit {
  constructor(
    private readonly root: string,
    /** an empty directory: git's HOME and hooks path */
    private readonly emptyDir: string,
  ) {}

  /** The directory `git http-backend` serves a workspace's repositories from. */
  projectRoot(workspaceId: string): string {
    return path.join(this.root, workspaceId);
  }

  gitDir(workspaceId: string, name: string): string {
    return path.join(this.projectRoot(workspaceId), `${name}.git`);
  }

  /** Git's whole environment: none of the server's own, no configuration read, no hooks. */
  private env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: this.emptyDir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.hooksPath',
      GIT_CONFIG_VALUE_0: this.emptyDir,
      ...extra,
    };
  }

  private git(args: string[], env: Record<string, string> = {}) {
    return run('git', args, { env: this.env(env), maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' });
  }

  /** Creates an empty bare repository whose HEAD names `defaultBranch`. */
  async create(workspaceId: string, name: string, defaultBranch: string): Promise<void> {
    await this.git([
      'init',
      '--quiet',
      '--bare',
      `--initial-branch=${defaultBranch}`,
      this.gitDir(workspaceId, name),
    ]);
  }

  async remove(workspaceId: string, name: string): Promise<void> {
    await rm(this.gitDir(workspaceId, name), { recursive: true, force: true });
  }

  async exists(workspaceId: string, name: string): Promise<boolean> {
    return stat(path.join(this.gitDir(workspaceId, name), 'HEAD')).then(
      () => true,
      () => false,
    );
  }

  /** Every branch and tag with the commit it points at, e.g. `refs/heads/main` → sha. */
  async refs(workspaceId: string, name: string): Promise<Map<string, string>> {
    const { stdout } = await this.git([
      `--git-dir=${this.gitDir(workspaceId, name)}`,
      'for-each-ref',
      '--format=%(objectname) %(refname)',
    ]);
    const refs = new Map<string, string>();
    for (const line of stdout.split('\n')) {
      const space = line.indexOf(' ');
      if (space > 0) refs.set(line.slice(space + 1), line.slice(0, space));
    }
    return refs;
  }

  /**
   * Commits `files` onto `branch` (on top of what it holds, if anything) without a work tree:
   * each file is written as a blob and staged in a throwaway index.
   */
  async commit(
    workspaceId: string,
    name: string,
    branch: string,
    files: Record<string, SeedFile>,
    message: string,
    author: CommitAuthor,
  ): Promise<string> {
    const gitDir = `--git-dir=${this.gitDir(workspaceId, name)}`;
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'slipway-index-'));
    const env = {
      GIT_INDEX_FILE: path.join(scratch, 'index'),
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_COMMITTER_NAME: author.name,
      GIT_COMMITTER_EMAIL: author.email,
    };
    try {
      const parent = (await this.refs(workspaceId, name)).get(`refs/heads/${branch}`);
      if (parent) await this.git([gitDir, 'read-tree', parent], env);
      for (const [file, { content, executable }] of Object.entries(files)) {
        const blob = await this.hashObject(gitDir, content);
        await this.git(
          [
            gitDir,
            'update-index',
            '--add',
            '--cacheinfo',
            `${executable ? '100755' : '100644'},${blob},${file}`,
          ],
          env,
        );
      }
      const tree = (await this.git([gitDir, 'write-tree'], env)).stdout.trim();
      const commit = (
        await this.git([gitDir, 'commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', message], env)
      ).stdout.trim();
      await this.git([gitDir, 'update-ref', `refs/heads/${branch}`, commit, ...(parent ? [parent] : [])]);
      return commit;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  private async hashObject(gitDir: string, content: string | Buffer): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = execFile(
        'git',
        [gitDir, 'hash-object', '-w', '--stdin'],
        { env: this.env(), encoding: 'utf8' },
        (err, stdout) => (err ? reject(err) : resolve(stdout.trim())),
      );
      child.stdin!.end(content);
    });
  }
}
