import { lstat, mkdir } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';

/** A directory a sandbox would be given that lies outside its base or behind a symbolic link. */
export class HostPathError extends Error {}

/**
 * Walks from `base` down to `target`, which must lie inside it, refusing a symbolic link on the
 * way (a step may have put one in a workspace to point the server at the host's files) and a
 * file where a directory should be; missing directories are made. Done as the server, before
 * anything is bound or chowned for the sandbox, so `..` in a subPath or a link planted by an
 * earlier step never reaches outside the run's own directories.
 */
export async function directoryInside(base: string, target: string, what: string): Promise<void> {
  const rel = relative(base, target);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))
    throw new HostPathError(`${what} lies outside its workspace`);
  let at = base;
  for (const part of rel.split(sep).filter(Boolean)) {
    at = join(at, part);
    try {
      const stat = await lstat(at);
      if (stat.isSymbolicLink()) throw new HostPathError(`${what} passes through a symbolic link (${part})`);
      if (!stat.isDirectory()) throw new HostPathError(`${what} passes through a file (${part})`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await mkdir(at, { mode: 0o755 });
    }
  }
}
