import { chmod, lstat, mkdir, readdir, readlink, rm } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';

/** A tar member that may not be unpacked; the message says which rule it broke. */
export class UnsafeEntryError extends Error {}

const MAX_SYMLINKS = 40;

/**
 * A member name as path components inside the root: `./a/b/` → ['a', 'b']. Absolute names, `..`
 * components and NUL bytes are refused: a layer is hostile input.
 */
export function splitEntryPath(name: string): string[] {
  if (name.includes('\0')) throw new UnsafeEntryError('has a NUL byte in its name');
  if (name.startsWith('/')) throw new UnsafeEntryError('is an absolute path');
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new UnsafeEntryError('has a ".." component');
  return parts;
}

export async function lstatOrNull(file: string): Promise<Stats | null> {
  try {
    return await lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Resolves directory components inside `root` the way the sandbox will see them: symlinks are
 * followed with `root` as `/`; a relative link climbing above the root is refused. Missing
 * directories are made (mode 0755) when `create`, else null is returned. The answer is the real
 * components, none of them a symlink.
 */
export async function resolveDirectory(
  root: string,
  components: string[],
  create: boolean,
): Promise<string[] | null> {
  const resolved: string[] = [];
  const queue = [...components];
  let links = 0;
  while (queue.length > 0) {
    const part = queue.shift()!;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (resolved.length === 0) throw new UnsafeEntryError('resolves through a symlink to outside the root');
      resolved.pop();
      continue;
    }
    const full = path.join(root, ...resolved, part);
    const stats = await lstatOrNull(full);
    if (!stats) {
      if (!create) return null;
      await mkdir(full, { mode: 0o755 });
      resolved.push(part);
      continue;
    }
    if (stats.isSymbolicLink()) {
      if (++links > MAX_SYMLINKS) throw new UnsafeEntryError('resolves through too many symlinks');
      const target = await readlink(full);
      if (target.startsWith('/')) resolved.length = 0;
      queue.unshift(...target.split('/'));
      continue;
    }
    if (!stats.isDirectory()) {
      if (!create) return null;
      throw new UnsafeEntryError(`has a parent "${[...resolved, part].join('/')}" that is not a directory`);
    }
    resolved.push(part);
  }
  return resolved;
}

/**
 * Removes a tree even where its directories are read-only to us (unpacked images keep their
 * directories' modes): such directories are made writable first, without following symlinks.
 */
export async function forceRemove(dir: string): Promise<void> {
  try {
    await rm(dir, { recursive: true, force: true });
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM' && code !== 'ENOTEMPTY') throw error;
  }
  const walk = async (current: string): Promise<void> => {
    const stats = await lstatOrNull(current);
    if (!stats?.isDirectory()) return;
    await chmod(current, 0o700).catch(() => undefined);
    const children = await readdir(current).catch(() => [] as string[]);
    for (const child of children) await walk(path.join(current, child));
  };
  await walk(dir);
  await rm(dir, { recursive: true, force: true });
}
