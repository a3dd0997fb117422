import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { forceRemove } from './safe-path.js';
import type { ImageConfig } from './types.js';

/** What the cache keeps about an unpacked image, beside its rootfs. */
export interface CachedImage {
  digest: string;
  config: ImageConfig;
  platform: string;
  /** the reference it was first pulled as */
  reference: string;
  pulledAt: string;
}

/** `index.json`: which digest a tag pointed at, and which image a multi-platform index gave. */
interface CacheIndex {
  version: 1;
  /** `registry/repo:tag` → the digest the registry answered for it (an index or an image) */
  tags: Record<string, { digest: string; checkedAt: string }>;
  /** `<index digest> <platform>` → image manifest digest */
  platforms: Record<string, string>;
}

const hex = (digest: string) => digest.replace(/^sha256:/, '');

/**
 * The on-disk cache: `rootfs/<hex>/` (unpacked, read-only use), `configs/<hex>.json`,
 * `index.json` and `tmp/`. A rootfs is made in `tmp/` and renamed into place, so it is either
 * complete or absent; its config file is written before that rename.
 */
export class ImageCache {
  constructor(readonly dir: string) {}

  rootfsPath(digest: string): string {
    return path.join(this.dir, 'rootfs', hex(digest));
  }

  private configPath(digest: string): string {
    return path.join(this.dir, 'configs', `${hex(digest)}.json`);
  }

  private indexPath(): string {
    return path.join(this.dir, 'index.json');
  }

  /** The cached image, when its rootfs is in place. */
  async image(digest: string): Promise<CachedImage | undefined> {
    try {
      const [info] = await Promise.all([
        readFile(this.configPath(digest), 'utf8'),
        stat(this.rootfsPath(digest)),
      ]);
      return JSON.parse(info) as CachedImage;
    } catch {
      return undefined;
    }
  }

  async readIndex(): Promise<CacheIndex> {
    try {
      const index = JSON.parse(await readFile(this.indexPath(), 'utf8')) as CacheIndex;
      if (index.version === 1 && index.tags && index.platforms) return index;
    } catch {
      // missing or torn: start afresh (it only saves registry round trips)
    }
    return { version: 1, tags: {}, platforms: {} };
  }

  /** Records a tag's digest and an index's platform pick (read, merge, write a temp file, rename). */
  async remember(update: {
    tag?: string;
    tagDigest?: string;
    platformKey?: string;
    imageDigest?: string;
  }): Promise<void> {
    const index = await this.readIndex();
    if (update.tag && update.tagDigest) {
      index.tags[update.tag] = { digest: update.tagDigest, checkedAt: new Date().toISOString() };
    }
    if (update.platformKey && update.imageDigest) index.platforms[update.platformKey] = update.imageDigest;
    await this.writeAtomically(this.indexPath(), `${JSON.stringify(index, null, 2)}\n`);
  }

  /** A fresh directory in `tmp/` on the cache's file system, named for this process. */
  async tempDir(digest: string): Promise<string> {
    const dir = path.join(
      this.dir,
      'tmp',
      `${hex(digest).slice(0, 16)}-${process.pid}-${randomBytes(4).toString('hex')}`,
    );
    // the cache itself must let the sandbox's host user pass (bwrap resolves the rootfs as it)
    await mkdir(this.dir, { recursive: true, mode: 0o711 });
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /**
   * Moves an unpacked rootfs into place. When another process got there first, its copy wins
   * and ours is removed. The config file goes first, so a rootfs in place always has one.
   */
  async commit(tempRootfs: string, image: CachedImage): Promise<void> {
    await this.writeAtomically(this.configPath(image.digest), `${JSON.stringify(image, null, 2)}\n`);
    const target = this.rootfsPath(image.digest);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await rename(tempRootfs, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
      await forceRemove(tempRootfs);
    }
  }

  /** Removes temp directories left by processes that are gone. */
  async sweepTemp(): Promise<void> {
    const tmp = path.join(this.dir, 'tmp');
    const names = await readdir(tmp).catch(() => [] as string[]);
    for (const name of names) {
      const pid = Number(name.split('-')[1]);
      if (!Number.isInteger(pid) || pid === process.pid || alive(pid)) continue;
      await forceRemove(path.join(tmp, name)).catch(() => undefined);
    }
  }

  private async writeAtomically(file: string, text: string): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temp, text);
    await rename(temp, file);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
