/**
 * One CSV field (RFC 4180). A value a spreadsheet would run as a formula (one beginning with
 * `=`, `+`, `-`, `@`, a tab or a carriage return: CSV injection) gets a leading apostrophe, so
 * that opening an export never runs what a robot wrote into its task or robot id; programs
 * reading the file strip it, or read the JSON forms, which carry every value as it is. A field
 * holding a comma, a quote, CR or LF is quoted, its quotes doubled.
 */
export function csvField(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/** One CSV row of fields, numbers as they are, ended by CRLF. */
export const csvRow = (fields: ReadonlyArray<string | number>): string =>
  `${fields.map((f) => (typeof f === 'number' ? String(f) : csvField(f))).join(',')}\r\n`;
