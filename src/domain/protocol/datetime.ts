/**
 * RFC 3339 date-time: full date, `T` (or `t`/space), time with optional fraction, and a
 * mandatory offset (`Z` or `±hh:mm`). A timestamp without an offset is ambiguous by hours,
 * so it is rejected rather than guessed.
 */
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Milliseconds since the epoch, or null when the text is not an RFC 3339 date-time. */
export function parseRfc3339(text: string): number | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12) return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const maxDay = month === 2 && !leap ? 28 : DAYS_IN_MONTH[month - 1]!;
  if (day < 1 || day > maxDay || hour > 23 || minute > 59 || second > 60) return null;
  let offsetMin = 0;
  if (m[9] !== undefined) {
    const oh = Number(m[9]);
    const om = Number(m[10]);
    if (oh > 23 || om > 59) return null;
    offsetMin = (m[8]!.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  const frac = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  // A leap second (:60) is counted as the last millisecond of the minute.
  const ms = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59)) + (second === 60 ? 999 : frac);
  return ms - offsetMin * 60_000;
}

export const toRfc3339 = (ms: number): string => new Date(ms).toISOString();
