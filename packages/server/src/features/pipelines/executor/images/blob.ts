import { createHash } from 'node:crypto';
import { Readable, pipeline } from 'node:stream';
import * as zlib from 'node:zlib';
import { PullFailure } from './errors.js';
import type { Descriptor } from './manifest.js';
import type { RegistryClient } from './registry-client.js';
import type { RootfsWriter } from './layer-unpacker.js';
import { TarReader } from './tar-reader.js';

/** Checks bytes against a `sha256:` digest. */
export function checkDigest(bytes: Buffer, digest: string, what: string): void {
  const actual = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  if (actual !== digest) {
    throw new PullFailure(
      `${what} does not match its digest: expected ${digest}, got ${actual}`,
      'DIGEST_MISMATCH',
    );
  }
}

export function sha256Digest(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/**
 * A blob's bytes as they arrive, hashed on the way: past the descriptor's size, or at the end
 * when the size or the sha256 differ, it throws DIGEST_MISMATCH.
 */
export async function* verifiedChunks(
  body: AsyncIterable<Uint8Array>,
  descriptor: Descriptor,
  what: string,
): AsyncGenerator<Buffer> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const piece of body) {
    const chunk = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    size += chunk.length;
    if (size > descriptor.size) {
      throw new PullFailure(
        `${what} is larger than its descriptor's ${descriptor.size} bytes`,
        'DIGEST_MISMATCH',
      );
    }
    hash.update(chunk);
    yield chunk;
  }
  const actual = `sha256:${hash.digest('hex')}`;
  if (size !== descriptor.size || actual !== descriptor.digest) {
    throw new PullFailure(
      `${what} does not match its digest: expected ${descriptor.digest} (${descriptor.size} bytes), got ${actual} (${size} bytes)`,
      'DIGEST_MISMATCH',
    );
  }
}

function bodyOf(res: Response): AsyncIterable<Uint8Array> {
  return (res.body ?? []) as unknown as AsyncIterable<Uint8Array>;
}

/** A small blob (the image config), read whole and verified. */
export async function readBlob(
  client: RegistryClient,
  descriptor: Descriptor,
  what: string,
  max: number,
  signal?: AbortSignal,
): Promise<Buffer> {
  if (descriptor.size > max) throw new PullFailure(`${what} is larger than ${max} bytes`, 'UNSUPPORTED');
  const res = await client.blob(descriptor.digest, signal);
  const chunks: Buffer[] = [];
  for await (const chunk of verifiedChunks(bodyOf(res), descriptor, what)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

type Decompressor = () => NodeJS.ReadWriteStream;

export function decompressorFor(head: Buffer, what: string): Decompressor | null {
  if (head[0] === 0x1f && head[1] === 0x8b) return () => zlib.createGunzip();
  if (head.readUInt32LE(0) === 0xfd2fb528) {
    const zstd = (zlib as unknown as { createZstdDecompress?: Decompressor }).createZstdDecompress;
    if (zstd) return () => zstd();
    throw new PullFailure(
      `${what} is zstd-compressed, which needs Node.js 22.15 or later (this is ${process.version}); use a gzip image`,
      'UNSUPPORTED',
    );
  }
  if (
    head.subarray(0, 3).toString('latin1') === 'BZh' ||
    head.subarray(0, 4).toString('hex') === 'fd377a58'
  ) {
    throw new PullFailure(`${what} is bzip2- or xz-compressed, which is not supported`, 'UNSUPPORTED');
  }
  return null;
}

/** Reads a verified blob to its end: throws its DIGEST_MISMATCH if it has one, else nothing. */
async function drainForDigest(chunks: AsyncIterator<Buffer>): Promise<void> {
  try {
    while (!(await chunks.next()).done);
  } catch (error) {
    if (error instanceof PullFailure && error.code === 'DIGEST_MISMATCH') throw error;
  }
}

/** Streams one layer blob through its digest check and decompression into the root filesystem. */
export async function unpackLayer(
  client: RegistryClient,
  descriptor: Descriptor,
  writer: RootfsWriter,
  signal?: AbortSignal,
): Promise<void> {
  const what = `layer ${descriptor.digest}`;
  const local = new AbortController();
  const linked = signal ? AbortSignal.any([signal, local.signal]) : local.signal;
  let output: Readable | undefined;
  try {
    const res = await client.blob(descriptor.digest, linked);
    const chunks = verifiedChunks(bodyOf(res), descriptor, what)[Symbol.asyncIterator]();
    const head: Buffer[] = [];
    let headLength = 0;
    let ended = false;
    while (headLength < 4) {
      const next = await chunks.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
      headLength += next.value.length;
    }
    const prefix = Buffer.concat(head);
    const whole = async function* (): AsyncGenerator<Buffer> {
      if (prefix.length > 0) yield prefix;
      if (ended) return;
      for (;;) {
        const next = await chunks.next();
        if (next.done) return;
        yield next.value;
      }
    };
    const decompressor = prefix.length >= 4 ? decompressorFor(prefix, what) : null;
    const source = Readable.from(whole(), { objectMode: false });
    output = decompressor
      ? (pipeline(source, decompressor(), () => undefined) as unknown as Readable)
      : source;
    const reader = new TarReader(output);
    try {
      await writer.applyLayer(reader, what, linked);
      await reader.drain();
    } catch (error) {
      const err = error as NodeJS.ErrnoException;
      if ((error instanceof PullFailure && error.code === 'DIGEST_MISMATCH') || linked.aborted) throw error;
      // a tampered blob usually breaks its gzip or tar first: read the rest to say so
      await drainForDigest(chunks);
      if (err?.code?.startsWith('Z_')) {
        throw new PullFailure(`${what} is not a valid gzip stream: ${err.message}`, 'LAYER', {
          cause: error,
        });
      }
      throw error;
    }
  } finally {
    local.abort();
    output?.destroy();
  }
}
