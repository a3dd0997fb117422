import { describe, expect, it } from 'vitest';
import type { StoredLine } from './chunk-codec.js';
import { decodeChunk, encodeChunk } from './chunk-codec.js';

describe('log chunk codec', () => {
  it('round-trips lines with changing steps, streams and times, ANSI and empty text kept', () => {
    const lines: StoredLine[] = [
      { seq: 7, at: 1000, stream: 'system', step: 'a', text: 'Running step "a"' },
      { seq: 8, at: 1000, stream: 'stdout', step: 'a', text: '\x1b[32mok\x1b[0m' },
      { seq: 9, at: 1001, stream: 'stdout', step: 'a', text: '' },
      { seq: 10, at: 1001, stream: 'stderr', step: 'a', text: 'warn' },
      { seq: 11, at: 1005, stream: 'stdout', step: 'b', text: 'b1' },
    ];
    const encoded = encodeChunk(lines);
    expect(encoded.runs).toEqual(['a', 'system', 1, 'a', 'stdout', 2, 'a', 'stderr', 1, 'b', 'stdout', 1]);
    expect(encoded.at).toEqual([1000, 2, 1001, 2, 1005, 1]);
    expect(decodeChunk(JSON.parse(JSON.stringify(encoded)))).toEqual(lines);
  });

  it('reads chunks stored as an array of line objects', () => {
    const at = '2026-01-01T00:00:00.000Z';
    expect(decodeChunk([{ seq: 1, at, stream: 'stdout', step: 's', text: 'x' }])).toEqual([
      { seq: 1, at: Date.parse(at), stream: 'stdout', step: 's', text: 'x' },
    ]);
  });
});
