import { describe, expect, it } from 'vitest';
import { collapseUnchanged, diffLines, lineDiff, splitLines, type DiffLine, type DiffRow } from './line-diff';

/** The diff as "  same", "- removed", "+ added" lines. */
const unified = (lines: DiffLine[]) =>
  lines.map((l) => `${{ same: ' ', removed: '-', added: '+' }[l.kind]} ${l.text}`);

/** The rows as lines, a gap as "… N". */
const shown = (rows: DiffRow[]) =>
  rows.map((r) => (r.type === 'gap' ? `… ${r.lines.length}` : `${r.line.kind[0]} ${r.line.text}`));

const text = (...lines: string[]) => lines.map((l) => `${l}\n`).join('');
const numbered = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);

/** The length of a longest common subsequence, by the textbook table (small inputs only). */
function lcsLength(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = x === b[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1]!);
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** A small seeded random number generator, so a failure can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('splitLines', () => {
  it('ends the last line at a final newline and reads every line ending', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a')).toEqual(['a']);
    expect(splitLines('a\n')).toEqual(['a']);
    expect(splitLines('a\r\nb\rc\n\n')).toEqual(['a', 'b', 'c', '']);
  });
});

describe('diffLines', () => {
  it('finds nothing to change in identical texts', () => {
    const same = text('apiVersion: tekton.dev/v1', 'kind: Pipeline');
    const lines = diffLines(same, same);
    expect(lines.every((l) => l.kind === 'same')).toBe(true);
    expect(lines.map((l) => [l.oldLine, l.newLine])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(lineDiff(same, same)).toMatchObject({ added: 0, removed: 0 });
    expect(diffLines('', '')).toEqual([]);
  });

  it('marks pure insertions as added, numbered in the new text', () => {
    const lines = diffLines(text('a', 'b', 'c'), text('a', 'x', 'b', 'c', 'y'));
    expect(unified(lines)).toEqual(['  a', '+ x', '  b', '  c', '+ y']);
    expect(lines.filter((l) => l.kind === 'added').map((l) => [l.oldLine, l.newLine])).toEqual([
      [null, 2],
      [null, 5],
    ]);
    expect(unified(diffLines('', text('a', 'b')))).toEqual(['+ a', '+ b']);
  });

  it('marks pure deletions as removed, numbered in the old text', () => {
    const lines = diffLines(text('a', 'b', 'c', 'd'), text('b', 'd'));
    expect(unified(lines)).toEqual(['- a', '  b', '- c', '  d']);
    expect(lines.filter((l) => l.kind === 'removed').map((l) => l.oldLine)).toEqual([1, 3]);
    expect(unified(diffLines(text('a'), ''))).toEqual(['- a']);
  });

  it('shows a replaced line as removed then added', () => {
    const before = text('kind: Pipeline', '  image: alpine:3.19', '  script: echo');
    const after = text('kind: Pipeline', '  image: alpine:3.20', '  script: echo');
    expect(unified(diffLines(before, after))).toEqual([
      '  kind: Pipeline',
      '-   image: alpine:3.19',
      '+   image: alpine:3.20',
      '    script: echo',
    ]);
    expect(unified(diffLines(text('a', 'b'), text('c', 'd')))).toEqual(['- a', '- b', '+ c', '+ d']);
  });

  it('finds a shortest edit script: as many unchanged lines as the longest common subsequence', () => {
    const next = random(1843);
    for (let round = 0; round < 300; round++) {
      const pick = () =>
        Array.from({ length: Math.floor(next() * 14) }, () => 'abcde'[Math.floor(next() * 5)]!);
      const a = pick();
      const b = pick();
      const lines = diffLines(text(...a), text(...b));
      const context = `${a.join('')} → ${b.join('')}`;
      // every line of each text, in order
      expect(
        lines.filter((l) => l.kind !== 'added').map((l) => l.text),
        context,
      ).toEqual(a);
      expect(
        lines.filter((l) => l.kind !== 'removed').map((l) => l.text),
        context,
      ).toEqual(b);
      expect(lines.filter((l) => l.kind === 'same').length, context).toBe(lcsLength(a, b));
    }
  });
});

describe('collapseUnchanged', () => {
  it('keeps 3 lines of context around each change and hides the rest behind a gap', () => {
    const before = numbered(20);
    const after = [...before];
    after[9] = 'changed 10';
    const rows = lineDiff(text(...before), text(...after)).rows;
    expect(shown(rows)).toEqual([
      '… 6',
      's line 7',
      's line 8',
      's line 9',
      'r line 10',
      'a changed 10',
      's line 11',
      's line 12',
      's line 13',
      '… 7',
    ]);
    const gap = rows[0] as Extract<DiffRow, { type: 'gap' }>;
    expect(gap.lines.map((l) => l.oldLine)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('keeps a short run between two changes whole, and cuts a long one in the middle', () => {
    const lines = (changedAt: number[]) => {
      const after = numbered(30).map((l, i) => (changedAt.includes(i + 1) ? `${l}!` : l));
      return shown(lineDiff(text(...numbered(30)), text(...after)).rows);
    };
    // 6 unchanged lines between the changes at 2 and 9: all shown
    expect(lines([2, 9]).filter((l) => l.startsWith('…'))).toEqual(['… 18']);
    // 16 between the changes at 2 and 19: 3 after the first, 3 before the second, 10 hidden
    const cut = lines([2, 19]);
    expect(cut.filter((l) => l.startsWith('…'))).toEqual(['… 10', '… 8']);
    expect(cut.slice(0, 9)).toEqual([
      's line 1',
      'r line 2',
      'a line 2!',
      's line 3',
      's line 4',
      's line 5',
      '… 10',
      's line 16',
      's line 17',
    ]);
  });

  it('is one gap for identical texts, and takes another amount of context', () => {
    expect(shown(lineDiff(text('a', 'b', 'c'), text('a', 'b', 'c')).rows)).toEqual(['… 3']);
    const rows = collapseUnchanged(diffLines(text('a', 'b', 'c', 'd'), text('a', 'b', 'c', 'e')), 1);
    expect(shown(rows)).toEqual(['… 2', 's c', 'r d', 'a e']);
  });
});

describe('lineDiff', () => {
  it('counts added and removed lines', () => {
    expect(lineDiff(text('a', 'b', 'c'), text('a', 'x', 'y', 'c'))).toMatchObject({ added: 2, removed: 1 });
  });

  it('compares a few thousand lines quickly, edits scattered through them', () => {
    const before = numbered(5000);
    const after = before.filter((_, i) => i % 250 !== 0).map((l, i) => (i % 400 === 7 ? `${l} (edited)` : l));
    after.splice(2500, 0, ...numbered(40, 'inserted'));
    const started = performance.now();
    const diff = lineDiff(text(...before), text(...after));
    expect(performance.now() - started).toBeLessThan(1500);
    expect(diff.removed).toBe(20 + 13);
    expect(diff.added).toBe(40 + 13);
    const kept = diff.rows.filter((r) => r.type === 'gap').reduce((n, r) => n + r.lines.length, 0);
    expect(kept).toBeGreaterThan(4000);
  });

  it('compares two long texts with (almost) nothing in common without stalling', () => {
    const started = performance.now();
    const diff = lineDiff(text(...numbered(3000, 'old')), text(...numbered(3000, 'new')));
    expect(diff).toMatchObject({ added: 3000, removed: 3000 });
    // one line in common: the whole search runs, every line but that one an edit
    const before = numbered(3000, 'old');
    const after = numbered(3000, 'new');
    before.splice(1000, 0, 'kind: Pipeline');
    after.splice(2000, 0, 'kind: Pipeline');
    const almost = lineDiff(text(...before), text(...after));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(almost).toMatchObject({ added: 3000, removed: 3000 });
  });

  it('compares two long texts of the same few lines in another order', () => {
    const next = random(7);
    const pick = () => Array.from({ length: 2000 }, () => `step ${Math.floor(next() * 8)}`);
    const a = pick();
    const b = pick();
    const started = performance.now();
    const lines = diffLines(text(...a), text(...b));
    expect(performance.now() - started).toBeLessThan(3000);
    expect(lines.filter((l) => l.kind !== 'added').map((l) => l.text)).toEqual(a);
    expect(lines.filter((l) => l.kind !== 'removed').map((l) => l.text)).toEqual(b);
  });
});
