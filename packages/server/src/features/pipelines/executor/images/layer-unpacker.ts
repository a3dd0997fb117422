import { chmod, link, mkdir, open, readdir, realpath, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { PullFailure } from './errors.js';
import { lstatOrNull, resolveDirectory, splitEntryPath, UnsafeEntryError } from './safe-path.js';
import type { TarEntry, TarReader } from './tar-reader.js';

const WHITEOUT = '.wh.';
const OPAQUE = '.wh..wh..opq';

/** Permission bits kept: setuid and setgid are dropped. */
function safeMode(mode: number): number {
  return mode & 0o1777;
}

/**
 * Applies image layers, in order, to a root filesystem directory: regular files, directories,
 * symlinks and hardlinks are made, whiteouts delete what lower layers made, device nodes and
 * fifos are skipped, setuid/setgid bits dropped, and members escaping the root refused.
 * Directory modes are applied by finish(), so that later layers can still write into them.
 */
export class RootfsWriter {
  private readonly dirModes = new Map<string, number>();

  private constructor(readonly root: string) {}

  static async create(root: string): Promise<RootfsWriter> {
    await mkdir(root, { recursive: true, mode: 0o755 });
    return new RootfsWriter(await realpath(root));
  }

  /** Applies one layer. `label` names it in errors (`layer sha256:…`). */
  async applyLayer(reader: TarReader, label: string, signal?: AbortSignal): Promise<void> {
    const created = new Set<string>();
    for (;;) {
      const entry = await reader.next();
      if (!entry) return;
      signal?.throwIfAborted();
      try {
        await this.applyEntry(entry, reader, created);
      } catch (error) {
        if (error instanceof UnsafeEntryError) {
          throw new PullFailure(
            `${label} has an entry "${entry.path}" that ${error.message}; it was refused`,
            'LAYER',
          );
        }
        if (error instanceof PullFailure) throw error;
        const err = error as NodeJS.ErrnoException;
        throw new PullFailure(
          `${label} could not be unpacked at "${entry.path}": ${err.code ?? ''} ${err.message}`.trim(),
          'LAYER',
          {
            cause: error,
          },
        );
      }
    }
  }

  private async applyEntry(entry: TarEntry, reader: TarReader, created: Set<string>): Promise<void> {
    const parts = splitEntryPath(entry.path);
    const base = parts.pop();
    if (base === undefined) return; // the root itself
    if (base.startsWith(WHITEOUT)) return this.whiteout(parts, base, created);
    if (
      entry.type !== 'file' &&
      entry.type !== 'directory' &&
      entry.type !== 'symlink' &&
      entry.type !== 'hardlink'
    ) {
      return; // device nodes, fifos and unknown member types are not made
    }
    const parent = await resolveDirectory(this.root, parts, true);
    const rel = [...parent!, base].join('/');
    const full = path.join(this.root, rel);
    for (let i = 1; i <= parent!.length + 1; i++) created.add([...parent!, base].slice(0, i).join('/'));
    const existing = await lstatOrNull(full);

    switch (entry.type) {
      case 'directory':
        if (!existing?.isDirectory()) {
          if (existing) await this.remove(rel);
          await mkdir(full, { mode: 0o700 });
        }
        this.dirModes.set(rel, safeMode(entry.mode));
        return;
      case 'file': {
        if (existing) await this.remove(rel);
        const handle = await open(full, 'wx', 0o600); // O_EXCL: never writes through a link
        try {
          for await (const chunk of reader.body()) {
            for (let written = 0; written < chunk.length;) {
              written += (await handle.write(chunk, written, chunk.length - written)).bytesWritten;
            }
          }
          await handle.chmod(safeMode(entry.mode));
          if (entry.mtime > 0) await handle.utimes(entry.mtime, entry.mtime);
        } finally {
          await handle.close();
        }
        return;
      }
      case 'symlink':
        if (existing) await this.remove(rel);
        await symlink(entry.linkpath, full);
        return;
      case 'hardlink': {
        const targetParts = splitEntryPath(entry.linkpath);
        const targetBase = targetParts.pop();
        const targetParent = targetBase ? await resolveDirectory(this.root, targetParts, false) : null;
        const target = targetParent ? path.join(this.root, ...targetParent, targetBase!) : '';
        const stats = target ? await lstatOrNull(target) : null;
        if (!stats) throw new UnsafeEntryError(`links to "${entry.linkpath}", which does not exist`);
        if (stats.isDirectory()) throw new UnsafeEntryError(`links to the directory "${entry.linkpath}"`);
        if (target === full) return;
        if (existing) await this.remove(rel);
        await link(target, full); // link(2) does not follow a symlink target
        return;
      }
    }
  }

  private async whiteout(parts: string[], base: string, created: Set<string>): Promise<void> {
    const parent = await resolveDirectory(this.root, parts, false);
    if (!parent) return;
    if (base === OPAQUE) {
      const dir = path.join(this.root, ...parent);
      const stats = await lstatOrNull(dir);
      if (!stats?.isDirectory()) return;
      for (const child of await readdir(dir)) {
        const rel = [...parent, child].join('/');
        if (!created.has(rel)) await this.remove(rel);
      }
      return;
    }
    if (base.startsWith(`${WHITEOUT}${WHITEOUT}`)) return; // aufs metadata (.wh..wh.plnk and the like)
    const name = base.slice(WHITEOUT.length);
    if (name === '' || name === '.' || name === '..') throw new UnsafeEntryError('is a whiteout of nothing');
    const rel = [...parent, name].join('/');
    if (!created.has(rel)) await this.remove(rel);
  }

  /** Removes a path (never following a symlink) and forgets directory modes under it. */
  private async remove(rel: string): Promise<void> {
    await rm(path.join(this.root, rel), { recursive: true, force: true });
    for (const key of this.dirModes.keys()) {
      if (key === rel || key.startsWith(`${rel}/`)) this.dirModes.delete(key);
    }
  }

  /** Applies the directories' modes, deepest first, only to real directories inside the root. */
  async finish(): Promise<void> {
    const entries = [...this.dirModes.entries()].sort(
      (a, b) => b[0].split('/').length - a[0].split('/').length,
    );
    for (const [rel, mode] of entries) {
      const full = path.join(this.root, rel);
      const stats = await lstatOrNull(full);
      if (!stats?.isDirectory()) continue;
      if ((await realpath(full)) !== full) continue; // a parent became a symlink: not ours to touch
      await chmod(full, mode);
    }
    this.dirModes.clear();
  }
}
