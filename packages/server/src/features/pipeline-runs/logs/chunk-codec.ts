/** One stored log line; `log_chunks.lines` holds a chunk of them encoded (EncodedChunk). */
export interface StoredLine {
  seq: number;
  /** epoch ms */
  at: number;
  stream: string;
  step: string;
  text: string;
}

/**
 * How a chunk's lines are kept in `log_chunks.lines` (jsonb). Version 2 is by column: the text of
 * each line, and run-length lists of (step, stream) and of timestamps, so PostgreSQL stores about
 * one jsonb value per line instead of five; PGlite writes it about five times faster. Chunks written
 * before (an array of line objects) still read.
 */
export interface EncodedChunk {
  v: 2;
  /** seq of the first line; the others follow by one */
  seq: number;
  /** [step, stream, count, step, stream, count, …] */
  runs: (string | number)[];
  /** [epoch ms, count, epoch ms, count, …] */
  at: number[];
  text: string[];
}

interface LegacyLine {
  seq: number;
  at: string;
  stream: string;
  step: string;
  text: string;
}

export function encodeChunk(lines: readonly StoredLine[]): EncodedChunk {
  const runs: (string | number)[] = [];
  const at: number[] = [];
  const text: string[] = new Array<string>(lines.length);
  let step: string | undefined;
  let stream: string | undefined;
  let time: number | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.step !== step || line.stream !== stream) {
      runs.push(line.step, line.stream, 1);
      step = line.step;
      stream = line.stream;
    } else (runs[runs.length - 1] as number)++;
    if (line.at !== time) {
      at.push(line.at, 1);
      time = line.at;
    } else at[at.length - 1]!++;
    text[i] = line.text;
  }
  return { v: 2, seq: lines[0]?.seq ?? 0, runs, at, text };
}

export function decodeChunk(stored: unknown): StoredLine[] {
  if (Array.isArray(stored)) return (stored as LegacyLine[]).map((l) => ({ ...l, at: Date.parse(l.at) }));
  const chunk = stored as EncodedChunk;
  const out: StoredLine[] = new Array<StoredLine>(chunk.text.length);
  let r = 0;
  let left = 0;
  let step = '';
  let stream = '';
  let a = 0;
  let timeLeft = 0;
  let time = 0;
  for (let i = 0; i < chunk.text.length; i++) {
    if (left === 0) {
      step = chunk.runs[r] as string;
      stream = chunk.runs[r + 1] as string;
      left = chunk.runs[r + 2] as number;
      r += 3;
    }
    if (timeLeft === 0) {
      time = chunk.at[a]!;
      timeLeft = chunk.at[a + 1]!;
      a += 2;
    }
    left--;
    timeLeft--;
    out[i] = { seq: chunk.seq + i, at: time, stream, step, text: chunk.text[i]! };
  }
  return out;
}

/** A stored chunk as columns (chunks written before version 2 are converted). */
export function toColumns(stored: unknown): EncodedChunk {
  return Array.isArray(stored) ? encodeChunk(decodeChunk(stored)) : (stored as EncodedChunk);
}

/** How many lines a chunk holds. */
export function lineCount(columns: EncodedChunk): number {
  return columns.text.length;
}
