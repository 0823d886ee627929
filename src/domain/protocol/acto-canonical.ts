import { actoNumberText, type ExponentSpelling } from './acto-numbers.js';
import { NumberText, type ReceivedJson, type ReceivedObject } from './received-json.js';

/**
 * A(v), the ACTO form of a value received as JSON text (docs/protocol.md, "The ACTO form"): the text
 * `orjson.dumps(v, option=OPT_SORT_KEYS)` gives for the Python value the text stands for.
 * Members sorted by the code points of their names (UTF-8 byte order), no white space, strings
 * escaped as in JCS, numbers as actoNumberText writes them.
 *
 * Null where orjson writes nothing: a string with a lone surrogate (orjson refuses it, and it
 * has no UTF-8 bytes to hash), an int past 64 bits, a float past a double's range.
 */
export interface ActoText {
  readonly text: string;
  /** A float was written with a positive exponent: the text depends on the exponent spelling. */
  readonly spellingMatters: boolean;
}

export function actoText(value: ReceivedJson, spelling: ExponentSpelling): ActoText | null {
  const writer = new Writer(spelling);
  return writer.write(value) ? { text: writer.parts.join(''), spellingMatters: writer.spellingMatters } : null;
}

/** The ACTO texts checks 4 and 5 hash, made in one pass over a received payload. */
export interface ActoPayloadTexts {
  /** A(payload.telemetry_normalized): what telemetry_hash is of. */
  readonly telemetry: string;
  /** A(payload without its payload_hash member): what payload_hash is of. */
  readonly payload: string;
  readonly spellingMatters: boolean;
}

export function actoPayloadTexts(payload: ReceivedObject, spelling: ExponentSpelling): ActoPayloadTexts | null {
  const writer = new Writer(spelling);
  const names = [...payload.keys()].filter((name) => name !== 'payload_hash').sort(byCodePoint);
  let telemetry: string | null = null;
  writer.parts.push('{');
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (!writer.name(name, i > 0)) return null;
    const start = writer.parts.length;
    if (!writer.write(payload.get(name)!)) return null;
    if (name === 'telemetry_normalized') telemetry = writer.parts.slice(start).join('');
  }
  writer.parts.push('}');
  return telemetry === null ? null : { telemetry, payload: writer.parts.join(''), spellingMatters: writer.spellingMatters };
}

/**
 * Names in code-point order. JavaScript compares strings by UTF-16 code units, which puts a
 * surrogate pair (U+10000 and above) before U+E000–U+FFFF; moving the surrogates above that
 * block at the first differing unit gives code-point order, which is also UTF-8 byte order.
 */
export function byCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

const codePointRank = (unit: number): number => (unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit);

// String#isWellFormed (ES2024) is in Node 20; elsewhere a regex in unicode mode finds a lone surrogate.
const nativeIsWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const isWellFormed = (text: string): boolean => (typeof nativeIsWellFormed === 'function' ? nativeIsWellFormed.call(text) : !LONE_SURROGATE.test(text));

/** Writes pieces of the text; a value with no ACTO form makes `write` false. */
class Writer {
  readonly parts: string[] = [];
  spellingMatters = false;

  constructor(private readonly spelling: ExponentSpelling) {}

  write(value: ReceivedJson): boolean {
    if (value === null) return this.put('null');
    if (typeof value === 'boolean') return this.put(value ? 'true' : 'false');
    if (typeof value === 'string') return this.string(value);
    if (value instanceof NumberText) {
      const text = actoNumberText(value.text, this.spelling);
      if (text === null) return false;
      // Only a positive exponent is spelled differently (`1e16`, `1e+16`).
      if (!this.spellingMatters && text.includes('e') && !text.includes('e-')) this.spellingMatters = true;
      return this.put(text);
    }
    if (Array.isArray(value)) {
      this.parts.push('[');
      for (let i = 0; i < value.length; i++) {
        if (i > 0) this.parts.push(',');
        if (!this.write(value[i]!)) return false;
      }
      return this.put(']');
    }
    this.parts.push('{');
    const names = [...value.keys()].sort(byCodePoint);
    for (let i = 0; i < names.length; i++) {
      if (!this.name(names[i]!, i > 0) || !this.write(value.get(names[i]!)!)) return false;
    }
    return this.put('}');
  }

  /** `"name":`, after a comma unless it is the first member. */
  name(name: string, comma: boolean): boolean {
    if (comma) this.parts.push(',');
    return this.string(name) && this.put(':');
  }

  /** JSON.stringify escapes a well-formed string exactly as RFC 8785, and orjson, do. */
  private string(text: string): boolean {
    return isWellFormed(text) && this.put(JSON.stringify(text));
  }

  private put(text: string): true {
    this.parts.push(text);
    return true;
  }
}
