import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv.js';
import { parseCsv } from './parse-csv.test-helper.js';

describe('csv', () => {
  it('quotes per RFC 4180 only when needed', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(401)).toBe('401');
  });

  it('neutralises cells a spreadsheet would run as formulas', () => {
    for (const evil of ['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1'])
      expect(csvCell(evil).replace(/^"/, '')).toMatch(/^'/);
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
  });

  it('parses back to the same cells', () => {
    const cells = ['a', 'b,c', 'd "e"', 'f\r\ng', '', 'h'];
    expect(parseCsv(csvRow(cells) + csvRow(['x']))).toEqual([cells, ['x']]);
  });
});
