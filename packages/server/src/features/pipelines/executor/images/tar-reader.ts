import { PullFailure } from './errors.js';

export type TarEntryType =
  'file' | 'directory' | 'symlink' | 'hardlink' | 'character' | 'block' | 'fifo' | 'other';

export interface TarEntry {
  /** the member name as archived (pax `path` and GNU long names applied) */
  path: string;
  type: TarEntryType;
  /** the tar typeflag, for messages about `other` entries */
  typeflag: string;
  size: number;
  mode: number;
  /** seconds since the epoch */
  mtime: number;
  /** symlink target or hardlink source */
  linkpath: string;
}

type Chunks = AsyncIterable<Buffer | Uint8Array | string> | Iterable<Buffer | Uint8Array>;

const BLOCK = 512;
const MAX_META = 1024 * 1024; // pax headers and GNU long names

/** Pulls exact byte counts out of a stream of chunks. */
class ByteSource {
  private readonly iterator: AsyncIterator<Buffer | Uint8Array | string>;
  private buffered: Buffer[] = [];
  private length = 0;
  private done = false;

  constructor(source: Chunks) {
    this.iterator =
      Symbol.asyncIterator in source
        ? source[Symbol.asyncIterator]()
        : (async function* () {
            yield* source;
          })();
  }

  private async fill(n: number): Promise<void> {
    while (this.length < n && !this.done) {
      const next = await this.iterator.next();
      if (next.done) this.done = true;
      else {
        const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
        if (chunk.length > 0) {
          this.buffered.push(chunk);
          this.length += chunk.length;
        }
      }
    }
  }

  /** Up to `max` bytes (fewer only at the end of the stream; empty at its end). */
  async chunk(max: number): Promise<Buffer> {
    await this.fill(1);
    const first = this.buffered[0];
    if (!first) return Buffer.alloc(0);
    if (first.length <= max) {
      this.buffered.shift();
      this.length -= first.length;
      return first;
    }
    this.buffered[0] = first.subarray(max);
    this.length -= max;
    return first.subarray(0, max);
  }

  /** Reads the stream to its end, dropping what is left. */
  async drain(): Promise<void> {
    this.buffered = [];
    this.length = 0;
    while (!this.done) {
      const next = await this.iterator.next();
      if (next.done) this.done = true;
    }
  }

  /** Exactly `n` bytes, or fewer at the end of the stream. */
  async read(n: number): Promise<Buffer> {
    await this.fill(n);
    const all = this.buffered.length === 1 ? this.buffered[0]! : Buffer.concat(this.buffered);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.buffered = rest.length > 0 ? [rest] : [];
    this.length = rest.length;
    return out;
  }
}

function truncated(): PullFailure {
  return new PullFailure('the layer is not a valid tar archive: it ends in the middle of an entry', 'LAYER');
}

function text(block: Buffer, from: number, length: number): string {
  const field = block.subarray(from, from + length);
  const nul = field.indexOf(0);
  return field.subarray(0, nul < 0 ? length : nul).toString('utf8');
}

function numeric(block: Buffer, from: number, length: number, what: string): number {
  const field = block.subarray(from, from + length);
  if (field[0]! & 0x80) {
    // GNU base-256: big-endian, the first byte's top bit set
    let value = field[0]! & 0x7f;
    for (let i = 1; i < field.length; i++) value = value * 256 + field[i]!;
    if (!Number.isSafeInteger(value))
      throw new PullFailure(`the layer has a tar ${what} that is too large`, 'LAYER');
    return value;
  }
  const digits = field
    .toString('latin1')
    .replace(/[\0 ]+$/, '')
    .replace(/^[ 0]+(?=.)/, '')
    .trim();
  if (digits === '') return 0;
  if (!/^[0-7]+$/.test(digits))
    throw new PullFailure(`the layer is not a valid tar archive: bad ${what} field`, 'LAYER');
  return Number.parseInt(digits, 8);
}

function checksumOk(block: Buffer): boolean {
  const stored = numeric(block, 148, 8, 'checksum');
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : block[i]!;
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  return stored === unsigned || stored === signed;
}

/** `len key=value\n` records of a pax extended header. */
function parsePax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space < 0) break;
    const len = Number.parseInt(data.subarray(offset, space).toString('latin1'), 10);
    if (!Number.isSafeInteger(len) || len <= 0 || offset + len > data.length) {
      throw new PullFailure('the layer has a malformed pax header', 'LAYER');
    }
    const record = data.subarray(space + 1, offset + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    offset += len;
  }
  return out;
}

const TYPES: Record<string, TarEntryType> = {
  '0': 'file',
  '\0': 'file',
  '': 'file',
  '7': 'file',
  '1': 'hardlink',
  '2': 'symlink',
  '3': 'character',
  '4': 'block',
  '5': 'directory',
  '6': 'fifo',
};

/**
 * A streaming reader of ustar, pax and GNU tar archives: next() gives the next member's header,
 * body() its content (to be read before the next next(), or it is skipped).
 */
export class TarReader {
  private readonly source: ByteSource;
  private remaining = 0; // body bytes of the current entry not read yet
  private padding = 0;

  constructor(source: Chunks) {
    this.source = new ByteSource(source);
  }

  async next(): Promise<TarEntry | null> {
    await this.skipBody();
    let pax: Record<string, string> = {};
    let longName: string | undefined;
    let longLink: string | undefined;
    for (;;) {
      const block = await this.source.read(BLOCK);
      if (block.length === 0) return null;
      if (block.length < BLOCK) throw truncated();
      if (block.every((b) => b === 0)) return null;
      if (!checksumOk(block))
        throw new PullFailure('the layer is not a valid tar archive: bad header checksum', 'LAYER');
      const typeflag = String.fromCharCode(block[156]!);
      let size = numeric(block, 124, 12, 'size');
      if (typeflag === 'x' || typeflag === 'g' || typeflag === 'L' || typeflag === 'K') {
        if (size > MAX_META) throw new PullFailure('the layer has an oversized tar extended header', 'LAYER');
        const data = await this.readMeta(size);
        if (typeflag === 'x') pax = { ...pax, ...parsePax(data) };
        else if (typeflag === 'L') longName = text(data, 0, data.length);
        else if (typeflag === 'K') longLink = text(data, 0, data.length);
        continue; // global pax headers carry nothing a layer needs
      }
      if (typeflag === 'S')
        throw new PullFailure('the layer has a GNU sparse file, which is not supported', 'UNSUPPORTED');
      const magic = block.subarray(257, 263).toString('latin1');
      const prefix = magic.startsWith('ustar') ? text(block, 345, 155) : '';
      let path = longName ?? (prefix ? `${prefix}/${text(block, 0, 100)}` : text(block, 0, 100));
      if (pax.path !== undefined) path = pax.path;
      if (pax.size !== undefined) {
        size = Number(pax.size);
        if (!Number.isSafeInteger(size) || size < 0)
          throw new PullFailure('the layer has a bad pax size', 'LAYER');
      }
      let type: TarEntryType = TYPES[typeflag] ?? 'other';
      if (type === 'file' && typeflag !== '7' && path.endsWith('/')) type = 'directory';
      // as Go's archive/tar: links, directories, devices and fifos have no data blocks
      const hasBody = type === 'file' || type === 'other';
      this.remaining = hasBody ? size : 0;
      this.padding = hasBody ? (BLOCK - (size % BLOCK)) % BLOCK : 0;
      return {
        path,
        type,
        typeflag,
        size: hasBody ? size : 0,
        mode: numeric(block, 100, 8, 'mode') & 0o7777,
        mtime:
          pax.mtime !== undefined ? Math.floor(Number(pax.mtime)) || 0 : numeric(block, 136, 12, 'mtime'),
        linkpath: pax.linkpath ?? longLink ?? text(block, 157, 100),
      };
    }
  }

  /** The current entry's content, chunk by chunk. */
  async *body(): AsyncGenerator<Buffer> {
    while (this.remaining > 0) {
      const chunk = await this.source.chunk(Math.min(this.remaining, 1024 * 1024));
      if (chunk.length === 0) throw truncated();
      this.remaining -= chunk.length;
      yield chunk;
    }
  }

  /** Reads the archive's stream to its end (zero blocks, padding), so that its digest gets checked. */
  async drain(): Promise<void> {
    await this.source.drain();
  }

  private async skipBody(): Promise<void> {
    for await (const _ of this.body());
    if (this.padding > 0) {
      const pad = await this.source.read(this.padding);
      if (pad.length < this.padding) throw truncated();
      this.padding = 0;
    }
  }

  private async readMeta(size: number): Promise<Buffer> {
    const padded = size + ((BLOCK - (size % BLOCK)) % BLOCK);
    const data = await this.source.read(padded);
    if (data.length < padded) throw truncated();
    return data.subarray(0, size);
  }
}
