/**
 * The UTF-8 bytes of a canonical text as it is written: one growing buffer per writer, reused
 * from one text to the next, and the RFC 8785 forms of strings and numbers written into it
 * byte by byte, without making a string per value. Owned by one CanonicalJson (canonical.ts).
 */
export class Utf8Output {
  bytes = new Uint8Array(INITIAL_BYTES);
  /** Bytes written so far. */
  length = 0;

  /** Starts a new text, letting go of a buffer a very large value made grow. */
  reset(): void {
    this.length = 0;
    if (this.bytes.length > MAX_KEPT_BYTES) this.bytes = new Uint8Array(INITIAL_BYTES);
  }

  /** Makes room for `n` more bytes. */
  reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  byte(b: number): void {
    this.reserve(1);
    this.bytes[this.length++] = b;
  }

  copy(source: Uint8Array): void {
    const n = source.length;
    this.reserve(n);
    const b = this.bytes;
    let p = this.length;
    for (let i = 0; i < n; i++) b[p++] = source[i]!;
    this.length = p;
  }

  /** Text that needs no escaping (a number's text), as UTF-8. */
  ascii(text: string): void {
    this.reserve(text.length);
    this.length += encoder.encodeInto(text, this.bytes.subarray(this.length)).written;
  }

  /**
   * A JSON string literal, escaped as RFC 8785 (and JSON.stringify) do: `"` and `\` get a
   * backslash, U+0008/9/A/C/D become \b \t \n \f \r, other controls below U+0020 become \u00xx
   * (lowercase hex), everything else is written as it is. False, with nothing kept, for a
   * lone surrogate, which has no UTF-8 form.
   */
  string(text: string): boolean {
    const n = text.length;
    this.reserve(n * 6 + 2); // the worst case: \u00xx for every unit
    const b = this.bytes;
    let p = this.length;
    b[p++] = QUOTE;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x80) {
        if (c >= 0x20 && c !== QUOTE && c !== BACKSLASH) {
          b[p++] = c;
        } else {
          b[p++] = BACKSLASH;
          const short = SHORT_ESCAPES[c]!;
          if (short !== 0) {
            b[p++] = short;
          } else {
            b[p++] = 0x75; // u00xx
            b[p++] = ZERO;
            b[p++] = ZERO;
            b[p++] = HEX[c >> 4]!;
            b[p++] = HEX[c & 15]!;
          }
        }
      } else if (c < 0x800) {
        b[p++] = 0xc0 | (c >> 6);
        b[p++] = 0x80 | (c & 0x3f);
      } else if (c < 0xd800 || c > 0xdfff) {
        b[p++] = 0xe0 | (c >> 12);
        b[p++] = 0x80 | ((c >> 6) & 0x3f);
        b[p++] = 0x80 | (c & 0x3f);
      } else {
        // A surrogate: it must be a high one followed by a low one.
        const low = text.charCodeAt(i + 1); // NaN past the end
        if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) return false;
        const cp = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        b[p++] = 0xf0 | (cp >> 18);
        b[p++] = 0x80 | ((cp >> 12) & 0x3f);
        b[p++] = 0x80 | ((cp >> 6) & 0x3f);
        b[p++] = 0x80 | (cp & 0x3f);
        i++;
      }
    }
    b[p++] = QUOTE;
    this.length = p;
    return true;
  }

  /**
   * A finite number as RFC 8785 writes it: ECMAScript Number::toString (what JSON.stringify
   * writes too; -0 gives "0"). Two common cases are written digit by digit, giving that same
   * text without making a string:
   * - an integer below 2^31 in magnitude;
   * - a non-integer x with 1e-6 ≤ |x| < 1e9 that some decimal with at most 6 fraction digits
   *   rounds to: it is written as that decimal, `int.frac` without trailing zeros.
   * Everything else goes through String().
   *
   * Why the second is Number::toString's text. In this range ulp(x) ≤ 2^-23 < 10^-6, so at
   * most one decimal with ≤ 6 fraction digits rounds to x; if one does, m = Math.round(|x| · 10^6)
   * finds it, because the product's rounding error (≤ 2^-4 as it is < 10^15) plus
   * 10^6 · ulp(x)/2 (< 0.06) stays under 0.5; and m / 10^6 === |x| (a correctly rounded
   * division) proves it. That decimal, without trailing zeros, has the fewest significant
   * digits of all decimals rounding to x, which is the choice Number::toString makes, and in
   * this range it uses plain decimal notation (exponents start below 1e-6 and at 1e21).
   */
  number(value: number): void {
    if (Number.isInteger(value)) {
      if (value > -INT_LIMIT && value < INT_LIMIT) {
        this.reserve(11);
        if (value < 0) {
          this.bytes[this.length++] = MINUS;
          this.digits(-value, 0);
        } else {
          this.digits(value, 0); // -0 too: it is written "0"
        }
        return;
      }
      return this.ascii(String(value));
    }
    const abs = value < 0 ? -value : value;
    if (abs >= 1e-6 && abs < 1e9) {
      const micros = Math.round(abs * 1e6);
      if (micros / 1e6 === abs) {
        const whole = Math.trunc(abs);
        let fraction = micros - whole * 1e6; // not 0, as abs is not an integer
        let width = 6;
        while (fraction % 10 === 0) {
          fraction /= 10;
          width--;
        }
        this.reserve(18);
        if (value < 0) this.bytes[this.length++] = MINUS;
        this.digits(whole, 0);
        this.bytes[this.length++] = DOT;
        this.digits(fraction, width);
        return;
      }
    }
    this.ascii(String(value));
  }

  /** The decimal digits of an integer 0 ≤ n < 2^31, left-padded with zeros to `width`; room is reserved. */
  private digits(n: number, width: number): void {
    let count = 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) count++;
    if (count < width) count = width;
    const b = this.bytes;
    const start = this.length;
    let p = start + count;
    this.length = p;
    let rest = n | 0; // -0 becomes 0
    do {
      b[--p] = ZERO + (rest % 10);
      rest = (rest / 10) | 0;
    } while (p > start);
  }
}

const INITIAL_BYTES = 16 * 1024;
/** A buffer grown past this for a large value is dropped afterwards rather than kept. */
const MAX_KEPT_BYTES = 256 * 1024;
const INT_LIMIT = 2 ** 31;

const encoder = new TextEncoder();
export const utf8 = (text: string): Uint8Array => encoder.encode(text);

export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
const DOT = 0x2e;
const MINUS = 0x2d;
const ZERO = 0x30;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;

/** The character after the backslash for `"`, `\` and the controls with a short escape; else 0. */
const SHORT_ESCAPES = new Uint8Array(0x80);
SHORT_ESCAPES[QUOTE] = QUOTE;
SHORT_ESCAPES[BACKSLASH] = BACKSLASH;
SHORT_ESCAPES[0x08] = 0x62; // b
SHORT_ESCAPES[0x09] = 0x74; // t
SHORT_ESCAPES[0x0a] = 0x6e; // n
SHORT_ESCAPES[0x0c] = 0x66; // f
SHORT_ESCAPES[0x0d] = 0x72; // r
const HEX = utf8('0123456789abcdef');
