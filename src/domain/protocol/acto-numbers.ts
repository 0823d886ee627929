/**
 * Numbers in the ACTO form (docs/protocol.md, "The ACTO form"): what `orjson.dumps` writes for the
 * Python value a number's received text stands for.
 *
 * The text says which Python type it was: Python's own JSON writes every float with a fraction
 * or an exponent (`56.0`, `1e-07`, `1e+16`) and every int without, so a text with neither is an
 * int and any other a float.
 */

/**
 * How a float's positive exponent is spelled. orjson up to 3.11.6 formats floats with the
 * `ryu` crate (`1e16`); from 3.11.7 it writes `1e+16`, the only difference its changelog names.
 * One envelope was hashed by one orjson, so a verifier tries one spelling for a whole envelope,
 * then the other (see acto-hashes.ts).
 */
export type ExponentSpelling = 'ryu' | 'plus';

/** orjson's integer range: i64 and u64. A Python int outside it makes orjson raise, so has no ACTO form. */
const MIN_INT = -(2n ** 63n);
const MAX_INT = 2n ** 64n - 1n;

/** Integer texts this long or shorter are within the range (|n| < 10^18 < 2^63). */
const SURELY_IN_RANGE = 18;

/**
 * The ACTO text of a number received as `text` (JSON number syntax), or null where orjson has
 * none (an int past 64 bits; a float past a double's range, which Python's JSON writes as
 * `Infinity`, not JSON, so no ACTO envelope holds one).
 */
export function actoNumberText(text: string, spelling: ExponentSpelling): string | null {
  if (!isFloatText(text)) {
    // A JSON integer has no leading zeros and no plus sign: its digits are already orjson's,
    // exact at any size (no rounding at 2^53), except `-0`, which Python reads as the int 0.
    if (text === '-0') return '0';
    const digits = text[0] === '-' ? text.length - 1 : text.length;
    if (digits <= SURELY_IN_RANGE) return text;
    const n = BigInt(text);
    return n >= MIN_INT && n <= MAX_INT ? text : null;
  }
  const value = Number(text);
  return Number.isFinite(value) ? actoFloatText(value, spelling) : null;
}

export const isFloatText = (text: string): boolean => /[.eE]/.test(text);

/**
 * A finite double as ryu's `format64` writes it (orjson's float writer): the shortest digits
 * d1…dn that read back as the same double, with the decimal point at kk (value = 0.d1…dn × 10^kk):
 * - 0 ≤ kk − n and kk ≤ 16: the digits, kk − n zeros, `.0` (`56.0`, `1000000000000000.0`);
 * - 0 < kk ≤ 16: the point inside the digits (`24.5`);
 * - −5 < kk ≤ 0: `0.`, −kk zeros, the digits (`0.000025`);
 * - else `d1.d2…dne<kk−1>`, or `d1e<kk−1>` for one digit (`1e-7`, `1e16`, `1.2345678901234568e17`).
 * Zero is `0.0` or `-0.0`.
 */
export function actoFloatText(value: number, spelling: ExponentSpelling): string {
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  const { digits, kk } = shortestDigits(value < 0 ? -value : value);
  const n = digits.length;
  if (kk - n >= 0 && kk <= 16) return `${sign}${digits}${'0'.repeat(kk - n)}.0`;
  if (kk > 0 && kk <= 16) return `${sign}${digits.slice(0, kk)}.${digits.slice(kk)}`;
  if (kk > -5 && kk <= 0) return `${sign}0.${'0'.repeat(-kk)}${digits}`;
  const exponent = kk - 1;
  const exponentText = exponent < 0 ? String(exponent) : spelling === 'plus' ? `+${exponent}` : String(exponent);
  return `${sign}${n === 1 ? digits : `${digits[0]}.${digits.slice(1)}`}e${exponentText}`;
}

/**
 * The shortest round-trip digits of a positive finite double and the position of the decimal
 * point, read from Number::toString, which ECMAScript defines as those digits (the ones closest
 * to the value where several are as short, the even one on a tie): the digits ryu writes too.
 */
function shortestDigits(value: number): { digits: string; kk: number } {
  const text = String(value); // "123.45", "0.000025", "123000", "1.5e-7", "1e+21"
  const e = text.indexOf('e');
  const mantissa = e < 0 ? text : text.slice(0, e);
  const exponent = e < 0 ? 0 : Number(text.slice(e + 1));
  const point = mantissa.indexOf('.');
  const all = point < 0 ? mantissa : mantissa.slice(0, point) + mantissa.slice(point + 1);
  let lead = 0;
  while (all[lead] === '0') lead++;
  let end = all.length;
  while (all[end - 1] === '0') end--;
  return { digits: all.slice(lead, end), kk: (point < 0 ? mantissa.length : point) - lead + exponent };
}
