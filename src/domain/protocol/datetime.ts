/**
 * RFC 3339 date-time: full date, `T` (or `t`/space), time with optional fraction, and a
 * mandatory offset (`Z` or `±hh:mm`). A timestamp without an offset is ambiguous by hours,
 * so it is rejected rather than guessed.
 *
 * Accepted text, exactly:
 *   dddd-dd-dd[Tt ]dd:dd:dd(.d+)?([Zz]|[+-]dd:dd)      (d: an ASCII digit)
 * with month 1–12, day 1–(days in that month; 29 in February of a Gregorian leap year), hour
 * ≤ 23, minute ≤ 59, second ≤ 60, offset hours ≤ 23 and offset minutes ≤ 59.
 */

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

// The length with no fraction and `Z`. RFC 3339 sets no limit on the fraction's digits.
const SHORTEST = 20;
/** Fraction digits that count: nanoseconds. Later ones cannot change the millisecond. */
const FRACTION_DIGITS = 9;

/**
 * Milliseconds since the epoch, or null when the text is not an RFC 3339 date-time.
 *
 * - The fraction is truncated to milliseconds (`.9999` is 999 ms). It may have any number of
 *   digits; those after the ninth are read but not counted.
 * - A leap second (:60) is counted as the last millisecond of its minute, whatever its
 *   fraction (`23:59:60.5Z` is 23:59:59.999).
 * - Years are those of the proleptic Gregorian calendar, 0000 included (a leap year, so
 *   `0000-02-29` exists). Unlike Date.UTC, years 0000–0099 are not taken as 1900–1999.
 */
export function parseRfc3339(text: string): number | null {
  const length = text.length;
  if (length < SHORTEST) return null;
  const year = digits4(text, 0);
  const month = digits2(text, 5);
  const day = digits2(text, 8);
  const hour = digits2(text, 11);
  const minute = digits2(text, 14);
  const second = digits2(text, 17);
  // Each is -1 when a character is not a digit, so one sign test covers all six.
  if ((year | month | day | hour | minute | second) < 0) return null;
  const separator = text.charCodeAt(10);
  if (
    text.charCodeAt(4) !== DASH ||
    text.charCodeAt(7) !== DASH ||
    (separator !== UPPER_T && separator !== LOWER_T && separator !== SPACE) ||
    text.charCodeAt(13) !== COLON ||
    text.charCodeAt(16) !== COLON
  ) {
    return null;
  }
  if (month < 1 || month > 12) return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const maxDay = month === 2 && !leap ? 28 : DAYS_IN_MONTH[month - 1]!;
  if (day < 1 || day > maxDay || hour > 23 || minute > 59 || second > 60) return null;

  // Fraction: a dot and at least one digit; the first nine are kept as an integer and its scale.
  let at = 19;
  let fraction = 0;
  let scale = 1;
  if (text.charCodeAt(at) === DOT) {
    at++;
    const start = at;
    for (let c = text.charCodeAt(at); c >= ZERO && c <= NINE; c = text.charCodeAt(++at)) {
      if (at - start < FRACTION_DIGITS) {
        fraction = fraction * 10 + (c - ZERO);
        scale *= 10;
      }
    }
    if (at === start) return null;
  }

  // Offset: Z, z, or ±hh:mm, and then the end of the text.
  let offsetMin = 0;
  const sign = text.charCodeAt(at);
  if (sign === UPPER_Z || sign === LOWER_Z) {
    if (at + 1 !== length) return null;
  } else if (sign === PLUS || sign === MINUS) {
    if (at + 6 !== length || text.charCodeAt(at + 3) !== COLON) return null;
    const oh = digits2(text, at + 1);
    const om = digits2(text, at + 4);
    if (oh < 0 || om < 0 || oh > 23 || om > 59) return null;
    offsetMin = (sign === MINUS ? -1 : 1) * (oh * 60 + om);
  } else {
    return null;
  }

  // fraction / scale is the double nearest to the decimal 0.ddd (a correctly rounded division
  // of exact integers), the very double Number('0.ddd') gives; the same arithmetic then follows.
  const frac = scale > 1 ? Math.floor((fraction / scale) * 1000) : 0;
  const ms = utcMs(year, month, day, hour, minute, Math.min(second, 59)) + (second === 60 ? 999 : frac);
  return ms - offsetMin * 60_000;
}

/**
 * Milliseconds since the epoch of a UTC date and time in the proleptic Gregorian calendar,
 * for the fields parseRfc3339 accepts, by arithmetic (exact: every value stays far below
 * 2^53), which is several times faster than a Date. Days are counted with H. Hinnant's
 * days_from_civil. Date.UTC would take years 0–99 as 1900–1999; this does not.
 */
function utcMs(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  let y = year;
  if (month <= 2) y--;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  const days = era * 146_097 + dayOfEra - 719_468;
  return days * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000;
}

/**
 * An instant as RFC 3339 text, in UTC (`…Z`) wherever RFC 3339 can write it there. Its years
 * have four digits, so an instant past 9999 in UTC (a signed `9999-12-31T23:59:59-23:59`) is
 * written with the offset -23:59 that keeps it in 9999, and one before year 0 with +23:59,
 * rather than as `+010000-…`, which no RFC 3339 parser reads.
 */
export function toRfc3339(ms: number): string {
  const utc = new Date(ms);
  const year = utc.getUTCFullYear();
  if (year >= 0 && year <= 9999) return utc.toISOString();
  const offsetMinutes = year > 9999 ? -LAST_OFFSET_MINUTES : LAST_OFFSET_MINUTES;
  const local = new Date(ms + offsetMinutes * 60_000);
  const localYear = local.getUTCFullYear();
  // Further out than any signed date-time can be: nothing shorter than the expanded form.
  if (localYear < 0 || localYear > 9999) return utc.toISOString();
  return `${local.toISOString().slice(0, -1)}${offsetMinutes < 0 ? '-' : '+'}23:59`;
}

/** The largest offset RFC 3339 allows here (parseRfc3339 takes hours up to 23): 23:59. */
const LAST_OFFSET_MINUTES = 23 * 60 + 59;

const ZERO = 0x30;
const NINE = 0x39;
const DASH = 0x2d;
const COLON = 0x3a;
const DOT = 0x2e;
const PLUS = 0x2b;
const MINUS = 0x2d;
const SPACE = 0x20;
const UPPER_T = 0x54;
const LOWER_T = 0x74;
const UPPER_Z = 0x5a;
const LOWER_Z = 0x7a;

/** The value of the ASCII digit at `i`, or -1 (also past the end, where charCodeAt is NaN). */
function digit(text: string, i: number): number {
  const d = text.charCodeAt(i) - ZERO;
  return d >= 0 && d <= 9 ? d : -1;
}

/** The two-digit number at `i`, or a negative number when either is not a digit. */
function digits2(text: string, i: number): number {
  const a = digit(text, i);
  const b = digit(text, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

function digits4(text: string, i: number): number {
  const a = digits2(text, i);
  const b = digits2(text, i + 2);
  return a < 0 || b < 0 ? -1 : a * 100 + b;
}

/**
 * The same instant as RFC 3339 in UTC (`…Z`), for text parseRfc3339 accepts; other text comes
 * back unchanged. Only the offset is applied: the seconds (a leap second's 60 included) and
 * every fraction digit stay as written, so no precision is lost, and `t`, `z` and a space
 * separator become `T` and `Z`. A date the shift would take outside years 0000–9999 is
 * returned as written.
 */
export function toUtcRfc3339(text: string): string {
  if (parseRfc3339(text) === null) return text;
  const last = text.charCodeAt(text.length - 1);
  const offsetAt = last === UPPER_Z || last === LOWER_Z ? text.length - 1 : text.length - 6;
  const seconds = text.slice(17, offsetAt); // "ss" and any fraction
  const head = `${text.slice(0, 10)}T${text.slice(11, 17)}`;
  if (offsetAt === text.length - 1) return `${head}${seconds}Z`;
  const sign = text.charCodeAt(offsetAt) === MINUS ? -1 : 1;
  const offsetMinutes = sign * (Number(text.slice(offsetAt + 1, offsetAt + 3)) * 60 + Number(text.slice(offsetAt + 4, offsetAt + 6)));
  if (offsetMinutes === 0) return `${head}${seconds}Z`;
  const local = new Date(0);
  local.setUTCFullYear(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)));
  local.setUTCHours(Number(text.slice(11, 13)), Number(text.slice(14, 16)) - offsetMinutes, 0, 0);
  const year = local.getUTCFullYear();
  if (year < 0 || year > 9999) return text;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${String(year).padStart(4, '0')}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}T${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${seconds}Z`;
}
