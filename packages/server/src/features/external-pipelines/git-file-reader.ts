import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isSshRepositoryUrl } from '@slipway/contracts';

/** Where an external pipeline's definition is: a file at a revision of a git repository. */
export interface GitFileLocation {
  url: string;
  revision: string;
  path: string;
}

export interface GitFile {
  text: string;
  /** the commit the revision pointed at */
  commit: string;
}

/** What could not be read: the repository (unreachable or refused), the revision, or the file. */
export type GitReadFailure = 'repository' | 'revision' | 'file';

/** The repository could not be read (unreachable, refused, no such revision or file). */
export class GitReadError extends Error {
  constructor(
    message: string,
    readonly failure: GitReadFailure,
  ) {
    super(message);
  }
}

/** git's words when the repository answered but has no such branch, tag or commit. */
const MISSING_REVISION = /couldn't find remote ref|not our ref|unadvertised object|no such (ref|commit)/i;

/**
 * How git authenticates to a private repository: over HTTPS a token, over SSH a private key and,
 * optionally, the host's known_hosts lines (without them the host key is not checked, as in
 * Tekton's git-clone; with them a host with any other key is refused).
 */
export type GitCredentials = { token: string } | { sshKey: string; knownHosts?: string };

/** Reads one file of a git repository at a revision. */
export interface GitFileSource {
  read(location: GitFileLocation, credentials: GitCredentials | null): Promise<GitFile>;
}

export interface GitCliOptions {
  /** scratch clones go here (removed after each read); the OS temp dir by default */
  scratchRoot?: string;
  timeoutMs?: number;
  /** extra environment for git (tests: GIT_SSL_CAINFO) */
  env?: Record<string, string>;
}

const MAX_FILE_BYTES = 1_000_000;

/**
 * git's own error lines that say why a fetch failed. Anything else git prints may carry text the
 * server sent (`remote:` lines, `fatal: remote error: …`), which is never shown back.
 */
const KNOWN_GIT_ERRORS = [
  /^fatal: repository '[^']*' not found$/,
  /^fatal: could not read (Username|Password) for '[^']*': .*$/,
  /^fatal: Authentication failed for '[^']*'$/,
  /^fatal: unable to access '[^']*': .*$/,
  /^fatal: couldn't find remote ref \S+$/,
  /^fatal: '[^']*' does not appear to be a git repository$/,
  /^fatal: Could not read from remote repository\.?$/,
  /^fatal: the remote end hung up unexpectedly$/,
  /^fatal: unable to connect to \S+:$/,
  /^fatal: transport '[^']*' not allowed$/,
  /^fatal: protocol '[^']*' is not supported$/,
  /^fatal: remote error: upload-pack: not our ref [0-9a-f]+$/,
  /^error: Server does not allow request for unadvertised object [0-9a-f]+$/,
  /^error: RPC failed; .*$/,
  /^ssh: connect to host \S+ port \d+: .*$/,
  /^ssh: Could not resolve hostname \S+: .*$/,
  /^\S+: Permission denied \([\w,-]+\)\.$/,
  /^Permission denied \([\w,-]+\)\.$/,
  /^Host key verification failed\.$/,
  /^No ED25519 host key is known for .*$/,
  /^Connection (closed|reset) by .*$/,
];

/** The first line of git's output with a known error, or a plain sentence: never server text. */
export function gitErrorLine(stderr: string): string {
  for (const raw of stderr.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.length <= 500 && KNOWN_GIT_ERRORS.some((p) => p.test(line))) return line;
  }
  return 'git could not fetch from the repository';
}

/** A word for a POSIX shell (GIT_SSH_COMMAND is run by one). */
const shellWord = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * The git CLI: `git fetch --depth 1 <url> <revision>` into a fresh scratch repository, then
 * `git cat-file` of the file at FETCH_HEAD. A token goes in an Authorization header (basic auth,
 * user `x-access-token`, as GitHub, GitLab and Gitea accept), never into the URL, and is blanked
 * out of every message. An SSH key is written (mode 0600) into the scratch repository, which is
 * removed after the read, and only it is offered: ssh reads no user or system configuration.
 */
export class GitCliFileSource implements GitFileSource {
  constructor(private readonly options: GitCliOptions = {}) {}

  async read(location: GitFileLocation, credentials: GitCredentials | null): Promise<GitFile> {
    const token = credentials && 'token' in credentials ? credentials.token : null;
    const root = this.options.scratchRoot ?? tmpdir();
    await mkdir(root, { recursive: true });
    const dir = await mkdtemp(path.join(root, 'slipway-external-'));
    const scrub = (text: string) => {
      let out = text.trim();
      if (token) {
        out = out.split(token).join('***');
        out = out.split(Buffer.from(`x-access-token:${token}`).toString('base64')).join('***');
      }
      return out;
    };
    const git = (args: string[], config: string[] = [], env: Record<string, string> = {}) =>
      new Promise<string>((resolve, reject) => {
        execFile(
          'git',
          [...config, ...args],
          {
            cwd: dir,
            timeout: this.options.timeoutMs ?? 60_000,
            maxBuffer: MAX_FILE_BYTES * 2,
            env: {
              PATH: process.env.PATH ?? '/usr/bin:/bin',
              HOME: dir,
              LANG: 'C.UTF-8',
              GIT_TERMINAL_PROMPT: '0',
              GIT_CONFIG_NOSYSTEM: '1',
              GIT_CONFIG_GLOBAL: '/dev/null',
              ...this.options.env,
              ...env,
            },
          },
          (error, stdout, stderr) => {
            if (error) reject(new Error(scrub(stderr || error.message)));
            else resolve(stdout);
          },
        );
      });
    try {
      try {
        await git(['init', '-q', '.']);
      } catch (error) {
        throw new GitReadError(
          `git could not be run on this host: ${(error as Error).message.split('\n')[0]}`,
          'repository',
        );
      }
      const auth = token
        ? [
            '-c',
            `http.extraHeader=Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`,
          ]
        : [];
      // over SSH without a key, ssh still runs with no configuration and no prompts: the server's
      // refusal, not a host-key question or someone's ~/.ssh, is what the user reads
      const sshEnv = isSshRepositoryUrl(location.url)
        ? await this.sshCommand(dir, credentials && 'sshKey' in credentials ? credentials : {})
        : {};
      try {
        await git(['fetch', '-q', '--depth', '1', '--', location.url, location.revision], auth, sshEnv);
      } catch (error) {
        const message = (error as Error).message;
        throw new GitReadError(
          `git fetch of revision "${location.revision}" from ${location.url} failed: ${gitErrorLine(message)}`,
          MISSING_REVISION.test(message) ? 'revision' : 'repository',
        );
      }
      const commit = (await git(['rev-parse', 'FETCH_HEAD'])).trim();
      const spec = `FETCH_HEAD:${location.path.replace(/^\.\//, '')}`;
      let size: number;
      try {
        size = Number((await git(['cat-file', '-s', spec])).trim());
      } catch {
        throw new GitReadError(
          `${location.path} not found at revision "${location.revision}" (commit ${commit.slice(0, 12)})`,
          'file',
        );
      }
      if (size > MAX_FILE_BYTES)
        throw new GitReadError(`${location.path} is larger than 1,000,000 bytes`, 'file');
      return { text: await git(['cat-file', 'blob', spec]), commit };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** GIT_SSH_COMMAND offering only this key (or none), checking the host against known_hosts when given. */
  private async sshCommand(
    dir: string,
    credentials: { sshKey?: string; knownHosts?: string },
  ): Promise<Record<string, string>> {
    const keyFile = path.join(dir, '.git', 'slipway-ssh-key');
    const knownHostsFile = path.join(dir, '.git', 'slipway-known-hosts');
    if (credentials.sshKey) {
      // OpenSSH refuses a key file without its final newline, and one with CRLF line ends
      const key = credentials.sshKey.replace(/\r\n/g, '\n').trimEnd() + '\n';
      await writeFile(keyFile, key, { mode: 0o600 });
    }
    const checked = Boolean(credentials.knownHosts?.trim());
    if (checked) await writeFile(knownHostsFile, credentials.knownHosts!.trim() + '\n', { mode: 0o600 });
    const options = [
      '-F /dev/null',
      credentials.sshKey ? `-i ${shellWord(keyFile)}` : '-o PubkeyAuthentication=no',
      '-o IdentitiesOnly=yes',
      '-o PasswordAuthentication=no',
      '-o IdentityAgent=none',
      '-o BatchMode=yes',
      '-o ConnectTimeout=20',
      '-o LogLevel=ERROR',
      '-o GlobalKnownHostsFile=/dev/null',
      checked
        ? `-o UserKnownHostsFile=${shellWord(knownHostsFile)} -o StrictHostKeyChecking=yes`
        : '-o UserKnownHostsFile=/dev/null -o StrictHostKeyChecking=no',
    ];
    return { GIT_SSH_COMMAND: `ssh ${options.join(' ')}`, GIT_SSH_VARIANT: 'ssh' };
  }
}
