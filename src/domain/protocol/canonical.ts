/**
 * RFC 8785 (JCS) canonical text. JSON cannot carry NaN or Infinity, but a string can carry a
 * lone surrogate, which has no UTF-8 form: such a value has no canonical bytes and so can
 * never be hashed the same way twice. Returns null for it (and for anything not JSON).
 *
 * A hand-written serializer, several times faster than the `canonicalize` package it
 * replaces, and for every value returning exactly what `canonicalize` did (the differential
 * tests in test/domain/protocol/canonical-fast.test.ts hold it to that), quirks included:
 * - `toJSON()` is honoured (a Date becomes its ISO string), called without arguments;
 * - in an object, a member whose value is undefined or a symbol is left out, while one whose
 *   value serializes to nothing (a function) is written as `"name":undefined`;
 * - in an array, undefined and symbols become `null`, while a function or a hole becomes an
 *   empty element (`[1,,2]`);
 * - NaN, ±Infinity, a BigInt, a cycle, a lone surrogate in a string or in the name of a
 *   member that is written, and at the top level anything that serializes to nothing
 *   (undefined, a function, a symbol) give null.
 *
 * It writes the UTF-8 bytes of the text into one reused buffer and decodes them once at the
 * end: no string is made per value, and the text comes out flat, ready to hash (a string
 * built by `+=` is a tree of pieces that the hasher would have to flatten first).
 */
export function canonicalText(value: unknown): string | null {
  // Scalars (canonicalPayloadText asks for several) need no buffer.
  switch (typeof value) {
    case 'string':
      return quoted(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : null;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
  }
  // Re-entrant (a toJSON may call canonicalText): the inner call gets its own buffer and
  // sees only its own ancestors.
  const outer = active ? { buf, pos, base, top, deep } : null;
  if (outer !== null) buf = new Uint8Array(INITIAL_BYTES);
  active = true;
  pos = 0;
  base = top;
  deep = null;
  try {
    return write(value) ? decoder.decode(buf.subarray(0, pos)) : null;
  } catch {
    return null;
  } finally {
    for (let i = base; i < top; i++) ancestors[i] = undefined;
    if (outer !== null) {
      ({ buf, pos, base, top, deep } = outer);
    } else {
      active = false;
      top = base;
      deep = null;
      // What a very large or very deep value made grow is let go rather than kept.
      if (buf.length > MAX_KEPT_BYTES) buf = new Uint8Array(INITIAL_BYTES);
      if (ancestors.length > MAX_KEPT_ANCESTORS) ancestors.length = 0;
    }
  }
}

/**
 * Canonical text of the payload without its `payload_hash` member. `telemetryText` is the
 * already computed canonical text of `telemetry_normalized`, reused rather than recomputed:
 * JCS of an object is its members sorted by UTF-16 code units, each `"name":C(value)`.
 */
export function canonicalPayloadText(payload: Record<string, unknown>, telemetryText?: string): string | null {
  const names = sortedNames(Object.keys(payload));
  let out = '{';
  let first = true;
  for (const name of names) {
    if (name === 'payload_hash' || payload[name] === undefined) continue;
    const value =
      name === 'telemetry_normalized' && telemetryText !== undefined ? telemetryText : canonicalText(payload[name]);
    if (value === null) return null;
    // JSON.stringify, not the lone-surrogate check of canonicalText: this is how it always was.
    out += (first ? '' : ',') + JSON.stringify(name) + ':' + value;
    first = false;
  }
  return out + '}';
}

/** The canonical bytes checks 4 and 5 hash, as views of one buffer (see canonicalPayloadBytes). */
export interface CanonicalPayloadBytes {
  /** The canonical payload without its payload_hash member: what payload_hash is of. */
  readonly payload: Uint8Array;
  /** The canonical `telemetry_normalized`, a part of `payload`: what telemetry_hash is of. */
  readonly telemetry: Uint8Array;
}

/**
 * The UTF-8 bytes of `canonicalPayloadText(payload, canonicalText(payload.telemetry_normalized))`
 * and of that telemetry text, made in one pass: JCS is compositional, so the canonical
 * telemetry is the span of the payload's text where its value is written. Hashing these
 * bytes skips making two strings that the hasher would only encode back into bytes.
 *
 * Null wherever either text would be null (and while another canonical call is under way):
 * the caller then takes the texts, which say which part failed. The views are of a shared
 * buffer, valid until the next call into this module, so hash them at once.
 */
export function canonicalPayloadBytes(payload: Record<string, unknown>): CanonicalPayloadBytes | null {
  if (active) return null;
  active = true;
  pos = 0;
  base = top;
  deep = null;
  try {
    const names = sortedNames(Object.keys(payload));
    let telemetryStart = -1;
    let telemetryEnd = -1;
    reserve(1);
    buf[pos++] = OPEN_BRACE;
    let first = true;
    for (const name of names) {
      if (name === 'payload_hash') continue;
      const value = payload[name];
      if (value === undefined) continue;
      // The name as canonicalPayloadText writes it: JSON.stringify, well-formed whatever it holds.
      writeRaw((first ? '' : ',') + JSON.stringify(name) + ':');
      first = false;
      const start = pos;
      if (!write(value)) return null;
      if (name === 'telemetry_normalized') {
        telemetryStart = start;
        telemetryEnd = pos;
      }
    }
    if (telemetryStart < 0) return null;
    reserve(1);
    buf[pos++] = CLOSE_BRACE;
    return { payload: buf.subarray(0, pos), telemetry: buf.subarray(telemetryStart, telemetryEnd) };
  } catch {
    return null;
  } finally {
    for (let i = base; i < top; i++) ancestors[i] = undefined;
    active = false;
    top = base;
    deep = null;
    if (buf.length > MAX_KEPT_BYTES) buf = new Uint8Array(INITIAL_BYTES);
    if (ancestors.length > MAX_KEPT_ANCESTORS) ancestors.length = 0;
  }
}

// ---- The output buffer -----------------------------------------------------------------------

const INITIAL_BYTES = 16 * 1024;
/** A buffer grown past this for a large value is dropped afterwards rather than kept. */
const MAX_KEPT_BYTES = 256 * 1024;

const MAX_KEPT_ANCESTORS = 1024;

let buf = new Uint8Array(INITIAL_BYTES);
let pos = 0;
let active = false;
// ignoreBOM: a text starting with U+FEFF keeps it (no JSON text does, but decoding must be exact).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/** Makes room for `bytes` more bytes at `pos`. */
function reserve(bytes: number): void {
  if (pos + bytes <= buf.length) return;
  const grown = new Uint8Array(Math.max(buf.length * 2, pos + bytes));
  grown.set(buf.subarray(0, pos));
  buf = grown;
}

function writeBytes(bytes: Uint8Array): void {
  const n = bytes.length;
  reserve(n);
  const b = buf;
  let p = pos;
  for (let i = 0; i < n; i++) b[p++] = bytes[i]!;
  pos = p;
}

/** Text that needs no escaping (JSON.stringify's output, a number's text), as UTF-8. */
function writeRaw(text: string): void {
  reserve(text.length * 3);
  pos += encoder.encodeInto(text, buf.subarray(pos)).written;
}

const utf8 = (text: string): Uint8Array => encoder.encode(text);
const NULL = utf8('null');
const TRUE = utf8('true');
const FALSE = utf8('false');
const UNDEFINED = utf8('undefined');
const EMPTY_ARRAY = utf8('[]');
const EMPTY_OBJECT = utf8('{}');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const DOT = 0x2e;
const MINUS = 0x2d;
const ZERO = 0x30;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

// ---- The serializer ------------------------------------------------------------------------

/** Thrown (and caught in canonicalText) when the value has no canonical text. */
const NO_CANONICAL_FORM = new Error('no canonical form');
const fail = (): never => {
  throw NO_CANONICAL_FORM;
};

/**
 * The objects being serialized, outermost first: a value met again while it is still open is
 * a cycle. The first ANCESTOR_SCAN levels are found by a linear scan (JSON rarely nests deeper
 * than a few levels); deeper levels are also kept in a Set, so a deep value costs linear time.
 */
const ancestors: unknown[] = [];
let base = 0;
let top = 0;
let deep: Set<unknown> | null = null;
const ANCESTOR_SCAN = 32;

function enter(object: object): void {
  const scanEnd = top - base < ANCESTOR_SCAN ? top : base + ANCESTOR_SCAN;
  for (let i = base; i < scanEnd; i++) if (ancestors[i] === object) fail();
  if (top - base >= ANCESTOR_SCAN) {
    if (deep === null) deep = new Set();
    else if (deep.has(object)) fail();
    deep.add(object);
  }
  ancestors[top++] = object;
}

function leave(): void {
  const object = ancestors[--top];
  ancestors[top] = undefined;
  if (top - base >= ANCESTOR_SCAN) deep!.delete(object);
}

/** Writes the canonical text of `value`; false (and nothing written) where JSON.stringify gives undefined. */
function write(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
      writeString(value);
      return true;
    case 'number':
      if (!Number.isFinite(value)) fail();
      writeNumber(value);
      return true;
    case 'boolean':
      writeBytes(value ? TRUE : FALSE);
      return true;
    case 'object':
      if (value === null) {
        writeBytes(NULL);
        return true;
      }
      return writeObject(value);
    default: {
      // What JSON has no form for: undefined, functions and symbols give undefined (unless a
      // function has a toJSON), a BigInt throws (unless BigInt.prototype has a toJSON).
      const text = JSON.stringify(value) as string | undefined;
      if (text === undefined) return false;
      writeRaw(text);
      return true;
    }
  }
}

function writeObject(object: object): boolean {
  const toJSON = (object as { toJSON?: unknown }).toJSON;
  enter(object);
  let wrote = true;
  if (typeof toJSON === 'function') wrote = write((toJSON as () => unknown).call(object));
  else if (Array.isArray(object)) writeArray(object);
  else writeMembers(object as Record<string, unknown>);
  leave();
  return wrote;
}

function writeArray(array: readonly unknown[]): void {
  const constructor: unknown = array.constructor;
  const map: unknown = array.map;
  if (constructor !== Array || map !== ARRAY_MAP) return writeArrayAsBefore(array);
  const length = array.length;
  if (length === 0) return writeBytes(EMPTY_ARRAY);
  reserve(1);
  buf[pos++] = OPEN_BRACKET;
  for (let i = 0; i < length; i++) {
    if (i > 0) {
      reserve(1);
      buf[pos++] = COMMA;
    }
    const element = array[i];
    if (element === undefined) {
      // A hole stays empty (Array#map skips it, Array#join writes nothing); undefined is null.
      if (i in array) writeBytes(NULL);
    } else if (typeof element === 'symbol') {
      writeBytes(NULL);
    } else {
      write(element); // a function writes nothing: an empty element, as Array#join gave
    }
  }
  reserve(1);
  buf[pos++] = CLOSE_BRACKET;
}

const ARRAY_MAP: unknown = Array.prototype.map;

/**
 * An array with its own `map` or `constructor` (or a subclass, or one from another realm):
 * canonicalize called `array.map(...)` on it and joined what that gave, so a `map` that is
 * not a function, or a species constructor that is not one, failed (null) and any other
 * ran as it would. Doing the very same keeps that. No parsed JSON ever comes here.
 */
function writeArrayAsBefore(array: readonly unknown[]): void {
  const texts = array.map((element) => {
    const start = pos;
    const wrote = write(element === undefined || typeof element === 'symbol' ? null : element);
    const text = wrote ? decoder.decode(buf.subarray(start, pos)) : undefined;
    pos = start;
    return text;
  });
  writeRaw(`[${texts.join(',')}]`);
}

function writeMembers(object: Record<string, unknown>): void {
  const keys = Object.keys(object);
  if (keys.length === 0) return writeBytes(EMPTY_OBJECT);
  const { names, opening, following } = layoutOf(keys);
  reserve(1);
  buf[pos++] = OPEN_BRACE;
  let first = true;
  for (let i = 0; i < names.length; i++) {
    const member = object[names[i]!];
    if (member === undefined || typeof member === 'symbol') continue;
    // A name with a lone surrogate fails only when its member is written (as it did before).
    writeBytes((first ? opening[i] : following[i]) ?? fail());
    if (!write(member)) writeBytes(UNDEFINED);
    first = false;
  }
  reserve(1);
  buf[pos++] = CLOSE_BRACE;
}

// ---- Member names --------------------------------------------------------------------------

/** An object layout: its names in canonical order, and the bytes to write before each value. */
interface Layout {
  /** The names as Object.keys gave them: the memo key. */
  readonly keys: readonly string[];
  readonly names: readonly string[];
  /**
   * `"name":` for `names[i]` as the first member written, and `,"name":` after another one;
   * null for a name with a lone surrogate, which has no JSON text.
   */
  readonly opening: ReadonlyArray<Uint8Array | null>;
  readonly following: ReadonlyArray<Uint8Array | null>;
}

/**
 * Telemetry repeats a few object layouts many times (every event, every `data` of a kind),
 * so sorting and quoting the names is done once per layout and remembered. The memo is
 * keyed by the first name, holds only small layouts (so it cannot pin much memory, whatever
 * it is fed) and is emptied when full. It changes no result: a layout is a pure function
 * of the names.
 */
const layouts = new Map<string, Layout[]>();
let layoutCount = 0;
const MAX_LAYOUTS = 256;
const MAX_LAYOUTS_PER_FIRST_NAME = 8;
const MAX_CACHED_NAMES = 32;
const MAX_CACHED_NAME_CHARS = 512;

function layoutOf(keys: string[]): Layout {
  const n = keys.length;
  const first = keys[0]!;
  const known = layouts.get(first);
  if (known !== undefined) {
    search: for (let l = 0; l < known.length; l++) {
      const layout = known[l]!;
      const cached = layout.keys;
      if (cached.length !== n) continue;
      for (let i = 1; i < n; i++) if (cached[i] !== keys[i]) continue search;
      return layout;
    }
  }
  const names = sortedNames(keys.slice());
  // JSON.stringify escapes a well-formed string exactly as RFC 8785 wants (see writeString).
  const texts = names.map((name) => (isWellFormed(name) ? JSON.stringify(name) + ':' : null));
  const layout: Layout = {
    keys,
    names,
    opening: texts.map((text) => (text === null ? null : utf8(text))),
    following: texts.map((text) => (text === null ? null : utf8(',' + text))),
  };
  if (n <= MAX_CACHED_NAMES && nameChars(keys) <= MAX_CACHED_NAME_CHARS) remember(first, known, layout);
  return layout;
}

function remember(first: string, known: Layout[] | undefined, layout: Layout): void {
  if (layoutCount >= MAX_LAYOUTS) {
    layouts.clear();
    layoutCount = 0;
    known = undefined;
  }
  if (known === undefined) {
    layouts.set(first, [layout]);
  } else {
    if (known.length >= MAX_LAYOUTS_PER_FIRST_NAME) {
      known.shift();
      layoutCount--;
    }
    known.push(layout);
  }
  layoutCount++;
}

function nameChars(keys: readonly string[]): number {
  let chars = 0;
  for (let i = 0; i < keys.length; i++) chars += keys[i]!.length;
  return chars;
}

/**
 * Names in UTF-16 code-unit order, as `Object.keys(o).sort()` gives them (names are unique,
 * so any correct sort agrees). An insertion sort for few names: several times faster than
 * Array#sort, whose default comparison converts both sides to strings.
 */
function sortedNames(keys: string[]): string[] {
  const n = keys.length;
  if (n > 16) return keys.sort();
  for (let i = 1; i < n; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

// String#isWellFormed (ES2024) is in Node 20 and current browsers; elsewhere, a regex in
// unicode mode sees a surrogate pair as one code point, so it matches only a lone surrogate.
const nativeIsWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const isWellFormed: (text: string) => boolean =
  typeof nativeIsWellFormed === 'function' ? (text) => nativeIsWellFormed.call(text) : (text) => !LONE_SURROGATE.test(text);

// ---- Strings -------------------------------------------------------------------------------

/**
 * A JSON string literal, as UTF-8, escaped as RFC 8785 (and JSON.stringify) do: `"` and `\`
 * get a backslash, U+0008/9/A/C/D become \b \t \n \f \r, other controls below U+0020 become
 * \u00xx (lowercase hex), everything else is written as it is. A lone surrogate has no
 * UTF-8 form: no canonical text.
 */
function writeString(text: string): void {
  const n = text.length;
  reserve(n * 6 + 2); // the worst case: \u00xx for every unit
  const b = buf;
  let p = pos;
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
      if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) fail();
      const cp = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
      b[p++] = 0xf0 | (cp >> 18);
      b[p++] = 0x80 | ((cp >> 12) & 0x3f);
      b[p++] = 0x80 | ((cp >> 6) & 0x3f);
      b[p++] = 0x80 | (cp & 0x3f);
      i++;
    }
  }
  b[p++] = QUOTE;
  pos = p;
}

/** The JSON string literal of `text` as a string, as writeString writes it; null for a lone surrogate. */
function quoted(text: string): string | null {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === QUOTE || c === BACKSLASH || (c >= 0xd800 && c <= 0xdfff)) {
      return isWellFormed(text) ? JSON.stringify(text) : null;
    }
  }
  return '"' + text + '"';
}

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

// ---- Numbers -------------------------------------------------------------------------------

/**
 * RFC 8785 numbers are ECMAScript Number::toString (what JSON.stringify writes too; -0 gives
 * "0"). Two common cases are written digit by digit, giving that same text without making
 * a string:
 * - an integer below 2^31 in magnitude;
 * - a non-integer x with 1e-6 ≤ |x| < 1e9 that some decimal with at most 6 fraction digits
 *   rounds to: it is written as that decimal, `int.frac` without trailing zeros.
 * Everything else goes through String().
 *
 * Why the second is Number::toString's text. In this range ulp(x) ≤ 2^-23 < 10^-6, so at
 * most one decimal with ≤ 6 fraction digits rounds to x; if one does, m = Math.round(|x| · 10^6)
 * finds it, because the product's rounding error (≤ 2^-4 as it is < 10^15) plus
 * 10^6 · ulp(x)/2 (< 0.06) stays under 0.5; and m / 10^6 === |x| (a correctly rounded
 * division) proves it. That decimal, without trailing zeros, has the fewest significant digits
 * of all decimals rounding to x, which is the choice Number::toString makes, and in this
 * range it uses plain decimal notation (exponents start below 1e-6 and at 1e21).
 */
function writeNumber(value: number): void {
  if (Number.isInteger(value)) {
    if (value > -INT_LIMIT && value < INT_LIMIT) {
      reserve(11);
      if (value < 0) {
        buf[pos++] = MINUS;
        writeDigits(-value, 0);
      } else {
        writeDigits(value, 0); // -0 too: it is written "0"
      }
      return;
    }
    return writeRaw(String(value));
  }
  const abs = value < 0 ? -value : value;
  if (abs >= 1e-6 && abs < 1e9) {
    const micros = Math.round(abs * 1e6);
    if (micros / 1e6 === abs) {
      const whole = Math.trunc(abs);
      let fraction = micros - whole * 1e6; // not 0, as abs is not an integer
      let digits = 6;
      while (fraction % 10 === 0) {
        fraction /= 10;
        digits--;
      }
      reserve(18);
      if (value < 0) buf[pos++] = MINUS;
      writeDigits(whole, 0);
      buf[pos++] = DOT;
      writeDigits(fraction, digits);
      return;
    }
  }
  writeRaw(String(value));
}

const INT_LIMIT = 2 ** 31;

/**
 * The decimal digits of a non-negative integer n < 2^31, left-padded with zeros to `width`
 * digits. The caller has reserved the room.
 */
function writeDigits(n: number, width: number): void {
  let count = 1;
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) count++;
  if (count < width) count = width;
  const b = buf;
  let p = pos + count;
  pos = p;
  let rest = n | 0; // -0 becomes 0
  do {
    b[--p] = ZERO + (rest % 10);
    rest = (rest / 10) | 0;
  } while (p > pos - count);
}
