/**
 * A line diff of two texts (a pipeline's definitions): Myers' O(ND) algorithm in linear space
 * (middle snake, divide and conquer), so a few thousand lines compare quickly. The result is a
 * unified view: every line of both texts once, removed lines before the added ones that replace
 * them, then unchanged runs collapsed to a few lines of context around each change.
 */

export type DiffKind = 'same' | 'added' | 'removed';

/** One line of the unified view, with its number in the old and the new text (1-based). */
export interface DiffLine {
  kind: DiffKind;
  text: string;
  /** null for an added line */
  oldLine: number | null;
  /** null for a removed line */
  newLine: number | null;
}

/** A shown line, or a run of unchanged lines hidden behind a "… N unchanged lines" separator. */
export type DiffRow = { type: 'line'; line: DiffLine } | { type: 'gap'; lines: DiffLine[] };

export interface LineDiff {
  rows: DiffRow[];
  added: number;
  removed: number;
}

/** The lines of a text; a final newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Each line as a number, equal lines the same number, so comparing is an integer compare. */
function toIds(a: readonly string[], b: readonly string[]): [Int32Array, Int32Array] {
  const ids = new Map<string, number>();
  const idOf = (line: string) => {
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    return id;
  };
  return [Int32Array.from(a, idOf), Int32Array.from(b, idOf)];
}

/**
 * Where to split `a[aLo, aHi)` against `b[bLo, bHi)`: a point on an optimal edit path half way
 * along it (the end of the forward half of the middle snake), or null when none was found.
 * Both ranges are non-empty. Adapted from diff-match-patch's bisect.
 */
function bisect(
  a: Int32Array,
  aLo: number,
  aHi: number,
  b: Int32Array,
  bLo: number,
  bHi: number,
): [number, number] | null {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const maxD = Math.ceil((n + m) / 2);
  const offset = maxD;
  const size = 2 * maxD + 2;
  const forward = new Int32Array(size).fill(-1);
  const backward = new Int32Array(size).fill(-1);
  forward[offset + 1] = 0;
  backward[offset + 1] = 0;
  const delta = n - m;
  // with an odd delta the paths meet while going forward, with an even one going backward
  const front = delta % 2 !== 0;
  let k1start = 0;
  let k1end = 0;
  let k2start = 0;
  let k2end = 0;
  for (let d = 0; d < maxD; d++) {
    for (let k1 = -d + k1start; k1 <= d - k1end; k1 += 2) {
      const i1 = offset + k1;
      let x1 =
        k1 === -d || (k1 !== d && forward[i1 - 1]! < forward[i1 + 1]!)
          ? forward[i1 + 1]!
          : forward[i1 - 1]! + 1;
      let y1 = x1 - k1;
      while (x1 < n && y1 < m && a[aLo + x1] === b[bLo + y1]) {
        x1++;
        y1++;
      }
      forward[i1] = x1;
      if (x1 > n) k1end += 2;
      else if (y1 > m) k1start += 2;
      else if (front) {
        const i2 = offset + delta - k1;
        if (i2 >= 0 && i2 < size && backward[i2] !== -1 && x1 >= n - backward[i2]!)
          return [aLo + x1, bLo + y1];
      }
    }
    for (let k2 = -d + k2start; k2 <= d - k2end; k2 += 2) {
      const i2 = offset + k2;
      let x2 =
        k2 === -d || (k2 !== d && backward[i2 - 1]! < backward[i2 + 1]!)
          ? backward[i2 + 1]!
          : backward[i2 - 1]! + 1;
      let y2 = x2 - k2;
      while (x2 < n && y2 < m && a[aHi - 1 - x2] === b[bHi - 1 - y2]) {
        x2++;
        y2++;
      }
      backward[i2] = x2;
      if (x2 > n) k2end += 2;
      else if (y2 > m) k2start += 2;
      else if (!front) {
        const i1 = offset + delta - k2;
        if (i1 >= 0 && i1 < size && forward[i1] !== -1) {
          const x1 = forward[i1]!;
          const y1 = offset + x1 - i1;
          if (x1 >= n - x2) return [aLo + x1, bLo + y1];
        }
      }
    }
  }
  return null;
}

/** Marks which lines of `a` are removed and which of `b` are added, on a shortest edit script. */
function markChanges(a: Int32Array, b: Int32Array): [Uint8Array, Uint8Array] {
  const removed = new Uint8Array(a.length);
  const added = new Uint8Array(b.length);
  const inB = new Set(b);
  if (!a.some((id) => inB.has(id))) return [removed.fill(1), added.fill(1)];
  const todo: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (todo.length) {
    let [aLo, aHi, bLo, bHi] = todo.pop()!;
    while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) {
      aLo++;
      bLo++;
    }
    while (aLo < aHi && bLo < bHi && a[aHi - 1] === b[bHi - 1]) {
      aHi--;
      bHi--;
    }
    if (aLo === aHi || bLo === bHi) {
      added.fill(1, bLo, bHi);
      removed.fill(1, aLo, aHi);
      continue;
    }
    const split = bisect(a, aLo, aHi, b, bLo, bHi);
    // no split, or one that does not make the problem smaller: everything here changed
    if (!split || (split[0] === aLo && split[1] === bLo) || (split[0] === aHi && split[1] === bHi)) {
      added.fill(1, bLo, bHi);
      removed.fill(1, aLo, aHi);
      continue;
    }
    todo.push([aLo, split[0], bLo, split[1]], [split[0], aHi, split[1], bHi]);
  }
  return [removed, added];
}

/** Every line of both texts in order: unchanged, removed (from `before`) and added (in `after`). */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  const [removed, added] = markChanges(...toIds(a, b));
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && removed[i]) {
      out.push({ kind: 'removed', text: a[i]!, oldLine: i + 1, newLine: null });
      i++;
    } else if (j < b.length && (added[j] || i >= a.length)) {
      out.push({ kind: 'added', text: b[j]!, oldLine: null, newLine: j + 1 });
      j++;
    } else {
      out.push({ kind: 'same', text: a[i]!, oldLine: i + 1, newLine: j + 1 });
      i++;
      j++;
    }
  }
  return out;
}

/**
 * The lines with each unchanged run cut down to `context` lines next to a change on either side;
 * what is cut becomes one gap. With no change at all, the whole text is one gap.
 */
export function collapseUnchanged(lines: readonly DiffLine[], context = 3): DiffRow[] {
  const rows: DiffRow[] = [];
  const show = (from: number, to: number) => {
    for (let k = from; k < to; k++) rows.push({ type: 'line', line: lines[k]! });
  };
  let i = 0;
  while (i < lines.length) {
    if (lines[i]!.kind !== 'same') {
      show(i, i + 1);
      i++;
      continue;
    }
    let j = i;
    while (j < lines.length && lines[j]!.kind === 'same') j++;
    const keepStart = i === 0 ? 0 : context; // after the change before the run
    const keepEnd = j === lines.length ? 0 : context; // before the change after it
    if (j - i <= keepStart + keepEnd) show(i, j);
    else {
      show(i, i + keepStart);
      rows.push({ type: 'gap', lines: lines.slice(i + keepStart, j - keepEnd) });
      show(j - keepEnd, j);
    }
    i = j;
  }
  return rows;
}

/** The unified diff of two texts with collapsed context, and how many lines were added and removed. */
export function lineDiff(before: string, after: string, context = 3): LineDiff {
  const lines = diffLines(before, after);
  let added = 0;
  let removed = 0;
  for (const line of lines) {
    if (line.kind === 'added') added++;
    else if (line.kind === 'removed') removed++;
  }
  return { rows: collapseUnchanged(lines, context), added, removed };
}
