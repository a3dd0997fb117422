export const MASK = '***';
/** Shorter values would mask ordinary text everywhere (GitLab and Tekton-based products use similar floors). */
export const MIN_SECRET_LENGTH = 3;

/**
 * Replaces every occurrence of any known secret value in a line by `***`. A multi-line value (a
 * key, a certificate) is also masked line by line, because output is masked after it is split
 * into lines. Longer values are replaced first, so a value that contains another is hidden whole.
 */
export class SecretMasker {
  private values: string[] = [];
  private buffers: Buffer[] = [];
  private longestBytes = 0;

  add(value: string): void {
    const candidates = [value, ...value.split('\n').map((part) => part.replace(/\r$/, ''))];
    let changed = false;
    for (const candidate of candidates) {
      if (candidate.length < MIN_SECRET_LENGTH || this.values.includes(candidate)) continue;
      this.values.push(candidate);
      changed = true;
    }
    if (!changed) return;
    this.values.sort((a, b) => b.length - a.length);
    this.buffers = this.values.map((v) => Buffer.from(v, 'utf8'));
    this.longestBytes = this.buffers[0]?.length ?? 0;
  }

  get size(): number {
    return this.values.length;
  }

  mask(text: string): string {
    let out = text;
    for (const value of this.values) {
      if (out.includes(value)) out = out.replaceAll(value, MASK);
    }
    return out;
  }

  /** Bytes a splitter must see beyond a cut point to know no secret straddles it. */
  get lookahead(): number {
    return Math.max(0, this.longestBytes - 1);
  }

  /**
   * Moves a cut point in `buf` back to the start of any secret occurrence that straddles it, so a
   * line split for length never leaves half a secret unmasked. Returns `cut` when nothing straddles.
   */
  safeCut(buf: Buffer, cut: number): number {
    let result = cut;
    for (let pass = 0; pass < 4; pass += 1) {
      let moved = false;
      for (const secret of this.buffers) {
        let from = Math.max(0, result - secret.length + 1);
        for (let at = buf.indexOf(secret, from); at !== -1 && at < result; at = buf.indexOf(secret, from)) {
          if (at + secret.length > result && at > 0) {
            result = at;
            moved = true;
            break;
          }
          from = at + 1;
        }
      }
      if (!moved) break;
    }
    return result;
  }
}
