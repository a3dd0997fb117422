import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** `sha256:<64 hex>`: the one digest algorithm the registry takes. */
export const DIGEST_RE = /^sha256:[a-f0-9]{64}$/;

export class BlobTooLarge extends Error {}

/**
 * The registry's bytes under the data directory: each blob once, at `blobs/sha256/<hex>`, and
 * uploads in progress at `uploads/<id>`. A finished upload is checked against the digest the
 * client names before it joins the blobs (renamed in, so a reader never sees half a blob).
 */
export class BlobStorage {
  constructor(
    private readonly root: string,
    /** the largest blob taken, in bytes */
    readonly maxBlobBytes: number,
  ) {}

  async init(): Promise<void> {
    await mkdir(path.join(this.root, 'blobs', 'sha256'), { recursive: true, mode: 0o700 });
    await mkdir(path.join(this.root, 'uploads'), { recursive: true, mode: 0o700 });
  }

  private blobPath(digest: string): string {
    if (!DIGEST_RE.test(digest)) throw new Error(`not a sha256 digest: ${digest}`);
    return path.join(this.root, 'blobs', 'sha256', digest.slice('sha256:'.length));
  }

  private uploadPath(id: string): string {
    if (!/^[a-f0-9-]{36}$/.test(id)) throw new Error(`not an upload id: ${id}`);
    return path.join(this.root, 'uploads', id);
  }

  /** The blob's size, or null when it is not stored. */
  async size(digest: string): Promise<number | null> {
    return stat(this.blobPath(digest)).then(
      (s) => s.size,
      () => null,
    );
  }

  read(digest: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.blobPath(digest), range);
  }

  /** A small blob's bytes (a manifest), or null when it is not stored. */
  async bytes(digest: string): Promise<Buffer | null> {
    return readFile(this.blobPath(digest)).catch(() => null);
  }

  /** Appends `body` to upload `id`, which holds `from` bytes so far; answers its new size. */
  async append(id: string, from: number, body: Readable): Promise<number> {
    let size = from;
    const limit = this.maxBlobBytes;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) body.destroy(new BlobTooLarge(`a blob may have at most ${limit} bytes`));
    });
    await pipeline(body, createWriteStream(this.uploadPath(id), { flags: from === 0 ? 'w' : 'a' }));
    return size;
  }

  /** Moves upload `id` into the blobs if its bytes hash to `digest`; false (upload kept) when not. */
  async commit(id: string, digest: string): Promise<boolean> {
    const file = this.uploadPath(id);
    const hash = createHash('sha256');
    await pipeline(createReadStream(file), hash);
    if (`sha256:${hash.digest('hex')}` !== digest) return false;
    await rename(file, this.blobPath(digest));
    return true;
  }

  /** Stores bytes already in memory (a manifest) under their digest. */
  async put(digest: string, bytes: Buffer): Promise<void> {
    const target = this.blobPath(digest);
    const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
    await pipeline(
      (async function* () {
        yield bytes;
      })(),
      createWriteStream(temp),
    );
    await rename(temp, target);
  }

  async discard(id: string): Promise<void> {
    await rm(this.uploadPath(id), { force: true });
  }
}
