/**
 * Reads RFC 4180 CSV (CRLF between records, quoted fields with doubled quotes, line breaks
 * inside quotes kept), strictly: anything else throws, so a test fails on a malformed export.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`a quote inside an unquoted field at ${i}`);
        field += text[i++];
      }
    }
    row.push(field);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text.startsWith('\r\n', i)) {
      i += 2;
      rows.push(row);
      row = [];
      continue;
    }
    if (i < text.length) throw new Error(`expected a comma or CRLF at ${i}`);
  }
  if (row.length > 0) throw new Error('the last record does not end with CRLF');
  return rows;
}
