import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.js';
import { SecretMasker } from './secret-masker.js';

function split(chunks: Array<string | Buffer>, maxBytes?: number, masker?: SecretMasker): string[] {
  const lines: string[] = [];
  const splitter = new LineSplitter(
    (text) => lines.push(masker ? masker.mask(text) : text),
    maxBytes,
    masker,
  );
  for (const chunk of chunks) splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  splitter.flush();
  return lines;
}

describe('LineSplitter', () => {
  it('splits on \\n across chunk boundaries and keeps empty lines', () => {
    expect(split(['one\ntw', 'o\n\nthr', 'ee\n'])).toEqual(['one', 'two', '', 'three']);
  });

  it('keeps \\r and ANSI colour escapes as they are', () => {
    expect(split(['\x1b[32mgreen\x1b[0m\r\n', 'progress 1\rprogress 2\n'])).toEqual([
      '\x1b[32mgreen\x1b[0m\r',
      'progress 1\rprogress 2',
    ]);
  });

  it('flushes a final line that has no newline', () => {
    expect(split(['done\npartial'])).toEqual(['done', 'partial']);
  });

  it('decodes a character split across two chunks', () => {
    const bytes = Buffer.from('héllo ✓\n');
    expect(split([bytes.subarray(0, 2), bytes.subarray(2, 8), bytes.subarray(8)])).toEqual(['héllo ✓']);
  });

  it('splits a line longer than the limit into pieces of at most the limit', () => {
    const lines = split(['a'.repeat(25), 'b'.repeat(10), '\nnext\n'], 10);
    expect(lines).toEqual(['aaaaaaaaaa', 'aaaaaaaaaa', 'aaaaabbbbb', 'bbbbb', 'next']);
  });

  it('splits a 200 KiB line at the default 64 KiB', () => {
    const lines = split(['x'.repeat(200 * 1024), '\n']);
    expect(lines.map((l) => l.length)).toEqual([65536, 65536, 65536, 8192]);
  });

  it('never cuts through a multi-byte character', () => {
    const lines = split(['ééééé\n'], 3); // 2 bytes each
    expect(lines).toEqual(['é', 'é', 'é', 'é', 'é']);
  });

  it('moves a length cut so that a secret on the boundary is still masked whole', () => {
    const masker = new SecretMasker();
    masker.add('hunter2');
    const lines = split(['12345678hunter2xyz\n'], 10, masker);
    expect(lines.join('')).toBe('12345678***xyz');
    expect(lines.every((l) => !l.includes('hunt'))).toBe(true);
  });

  it('waits for enough bytes to cut an unfinished long line safely', () => {
    const masker = new SecretMasker();
    masker.add('hunter2');
    const lines = split(['12345678hun', 'ter2xyz'], 10, masker);
    expect(lines.join('')).toBe('12345678***xyz');
  });
});
