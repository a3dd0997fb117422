/**
 * Keeps a hand-written text's formatting through an edit made on a re-serialised copy of it.
 *
 * The studio edits a definition through the `yaml` library's Document API, which keeps comments
 * but writes some things its own way (the padding inside `[a]`, the spaces before a `#`). So an
 * edit is made on `base` (the text as the library writes it, unedited) giving `edited`, and the
 * change from `base` to `edited` is replayed onto `original` with a line-based three-way merge:
 * lines the edit did not touch stay exactly as they were written. Where the edit touches a line
 * the library wrote differently, the edited line wins.
 */

/** Past this many cells in the comparison table, the edited text is answered as it is. */
const MAX_CELLS = 4_000_000;

/**
 * For each line of `a`, the index of the line of `b` it is matched with in a longest common
 * subsequence of the two, or -1; null when the texts are too far apart to compare cheaply.
 */
export function matchLines(a: readonly string[], b: readonly string[]): Int32Array | null {
  const out = new Int32Array(a.length).fill(-1);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) {
    out[start] = start;
    start++;
  }
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
    out[endA] = endB;
  }
  const n = endA - start;
  const m = endB - start;
  if (n === 0 || m === 0) return out;
  if (n * m > MAX_CELLS) return null;
  // lengths of the longest common subsequences of the suffixes, row by row
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      table[i * width + j] =
        a[start + i] === b[start + j]
          ? table[(i + 1) * width + j + 1]! + 1
          : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[start + i] === b[start + j]) {
      out[start + i] = start + j;
      i++;
      j++;
    } else if (table[(i + 1) * width + j]! >= table[i * width + j + 1]!) i++;
    else j++;
  }
  return out;
}

/** A stretch of `base` (lines bs..be) that one side wrote as its lines xs..xe. */
interface Hunk {
  bs: number;
  be: number;
  xs: number;
  xe: number;
  edit: boolean;
}

/** The stretches where a side differs from the base, from the lines they share. */
function hunksOf(match: Int32Array, sideLength: number, edit: boolean): Hunk[] {
  const out: Hunk[] = [];
  let pb = -1;
  let px = -1;
  for (let i = 0; i <= match.length; i++) {
    const x = i === match.length ? sideLength : match[i]!;
    if (x < 0) continue;
    if (i > pb + 1 || x > px + 1) out.push({ bs: pb + 1, be: i, xs: px + 1, xe: x, edit });
    pb = i;
    px = x;
  }
  return out;
}

/** Where a group of stretches of base lines gs..ge lies in one side. */
function rangeIn(hunks: Hunk[], match: Int32Array, gs: number, ge: number): [number, number] {
  const start = hunks.find((h) => h.bs === gs)?.xs ?? match[gs]!;
  const end = hunks.findLast((h) => h.be === ge)?.xe ?? match[ge - 1]! + 1;
  return [start, end];
}

interface Sides {
  ours: string[];
  theirs: string[];
  toOurs: Int32Array;
  toTheirs: Int32Array;
}

/**
 * The lines of a group of changed stretches. Changed only by one side: that side's lines. By
 * both: where the re-writing changed lines one for one (a comment's spacing, a list's padding),
 * the lines the edit left alone keep their written form and the edit's lines go between them;
 * otherwise the edit's lines, whole.
 */
function mergeGroup(group: { bs: number; be: number; hunks: Hunk[] }, sides: Sides): string[] {
  const { ours, theirs, toOurs, toTheirs } = sides;
  const edit = group.hunks.filter((h) => h.edit);
  const rewrite = group.hunks.filter((h) => !h.edit);
  if (edit.length === 0) {
    const [from, to] = rangeIn(rewrite, toOurs, group.bs, group.be);
    return ours.slice(from, to);
  }
  if (rewrite.length === 0 || rewrite.some((h) => h.be - h.bs !== h.xe - h.xs)) {
    const [from, to] = rangeIn(edit, toTheirs, group.bs, group.be);
    return theirs.slice(from, to);
  }
  const written = (line: number) => {
    const h = rewrite.find((r) => r.bs <= line && line < r.be);
    return h ? ours[h.xs + line - h.bs]! : ours[toOurs[line]!]!;
  };
  const out: string[] = [];
  let line = group.bs;
  for (const h of edit) {
    for (; line < h.bs; line++) out.push(written(line));
    out.push(...theirs.slice(h.xs, h.xe));
    line = Math.max(line, h.be);
  }
  for (; line < group.be; line++) out.push(written(line));
  return out;
}

/**
 * The change from `base` to `edited`, replayed onto `original` (which `base` is a re-written
 * copy of); null when the texts are too large to compare.
 */
export function mergeEdit(original: string, base: string, edited: string): string | null {
  if (original === base) return edited;
  if (base === edited) return original;
  const baseLines = base.split('\n');
  const ours = original.split('\n');
  const theirs = edited.split('\n');
  const toOurs = matchLines(baseLines, ours);
  const toTheirs = matchLines(baseLines, theirs);
  if (!toOurs || !toTheirs) return null;
  const all = [...hunksOf(toOurs, ours.length, false), ...hunksOf(toTheirs, theirs.length, true)].sort(
    (a, b) => a.bs - b.bs || a.be - b.be,
  );
  // stretches changed by both sides (overlapping, or insertions at the same line) go together
  const groups: { bs: number; be: number; hunks: Hunk[] }[] = [];
  for (const h of all) {
    const last = groups.at(-1);
    const insertionsTogether = last && h.bs === h.be && last.bs === last.be && h.bs === last.bs;
    if (last && (h.bs < last.be || insertionsTogether)) {
      last.be = Math.max(last.be, h.be);
      last.hunks.push(h);
    } else groups.push({ bs: h.bs, be: h.be, hunks: [h] });
  }
  const out: string[] = [];
  let i = 0;
  for (const group of groups) {
    for (; i < group.bs; i++) out.push(ours[toOurs[i]!]!);
    out.push(...mergeGroup(group, { ours, theirs, toOurs, toTheirs }));
    i = group.be;
  }
  for (; i < baseLines.length; i++) out.push(ours[toOurs[i]!]!);
  return out.join('\n');
}
