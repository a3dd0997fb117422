export const MAX_LINE_BYTES = 64 * 1024;

/** Keeps a length split from cutting through a secret (see SecretMasker.safeCut). */
export interface CutGuard {
  readonly lookahead: number;
  safeCut(buf: Buffer, cut: number): number;
}

const NEWLINE = 0x0a;

/** The last index <= cut that does not fall inside a UTF-8 sequence. */
function charBoundary(buf: Buffer, cut: number): number {
  let at = cut;
  while (at > 0 && at < buf.length && ((buf[at] ?? 0) & 0xc0) === 0x80) at -= 1;
  return at === 0 ? cut : at;
}

/**
 * Turns a byte stream into lines: splits on `\n` (dropped) and keeps everything else, `\r` and ANSI
 * escapes included; decodes UTF-8 per whole line so a character split across chunks stays intact;
 * splits a line longer than `maxBytes` into pieces (at a character boundary, never through a
 * secret); `flush` emits a final line that has no newline.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(
    private readonly emit: (text: string) => void,
    private readonly maxBytes: number = MAX_LINE_BYTES,
    private readonly guard?: CutGuard,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, nl);
      if (this.pendingBytes > 0) {
        this.pending.push(piece);
        this.emitLine(this.takePending());
      } else {
        this.emitLine(piece);
      }
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.pending.push(rest);
      this.pendingBytes += rest.length;
      this.drainLong();
    }
  }

  flush(): void {
    if (this.pendingBytes > 0) this.emitLine(this.takePending());
  }

  private takePending(): Buffer {
    const buf = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    return buf;
  }

  /** Emits pieces of an unfinished line once enough of it has arrived to cut safely. */
  private drainLong(): void {
    const needed = this.maxBytes + (this.guard?.lookahead ?? 0);
    if (this.pendingBytes <= needed) return;
    let buf = this.takePending();
    while (buf.length > needed) {
      const cut = this.cutPoint(buf);
      this.emit(buf.subarray(0, cut).toString('utf8'));
      buf = buf.subarray(cut);
    }
    if (buf.length > 0) {
      this.pending = [buf];
      this.pendingBytes = buf.length;
    }
  }

  private emitLine(line: Buffer): void {
    let buf = line;
    while (buf.length > this.maxBytes) {
      const cut = this.cutPoint(buf);
      this.emit(buf.subarray(0, cut).toString('utf8'));
      buf = buf.subarray(cut);
    }
    this.emit(buf.toString('utf8'));
  }

  private cutPoint(buf: Buffer): number {
    const cut = charBoundary(buf, this.maxBytes);
    return this.guard ? this.guard.safeCut(buf, cut) : cut;
  }
}
