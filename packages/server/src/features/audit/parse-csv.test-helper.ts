/** A strict RFC 4180 reader for tests: the export must parse back cell for cell. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
      } else if (ch === '"') {
        quoted = false;
        i += 1;
      } else {
        cell += ch;
        i += 1;
      }
    } else if (ch === '"' && cell === '') {
      quoted = true;
      i += 1;
    } else if (ch === ',') {
      row.push(cell);
      cell = '';
      i += 1;
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 2;
    } else if (ch === '"' || ch === '\n' || ch === '\r') {
      throw new Error(`bad CSV at ${i}`);
    } else {
      cell += ch;
      i += 1;
    }
  }
  if (cell !== '' || row.length) throw new Error('CSV must end with CRLF');
  return rows;
}
