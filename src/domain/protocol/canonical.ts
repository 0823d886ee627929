import { isWellFormed, LayoutMemo, sortedNames } from './canonical-layouts.js';
import { CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, utf8, Utf8Output } from './canonical-output.js';

/**
 * RFC 8785 (JCS) canonical JSON of JSON values: null, booleans, finite numbers, strings,
 * arrays and plain objects of them. A member whose value is `undefined` is absent, as in
 * JSON.stringify. Everything else has no canonical form and gives null: NaN and ±Infinity, a
 * string or member name with a lone surrogate (no UTF-8 bytes), a BigInt, a function or
 * symbol, an array hole or `undefined` element, an object other than a plain one (a Date, a
 * Map, a boxed primitive, a class instance, an array subclass), a cycle. canonical-problems.ts
 * names the first such place for an error message.
 *
 * A writer keeps its output buffer and a memo of object layouts from one call to the next,
 * which is what makes it fast; it holds no state between calls that changes a result. Keep
 * one per thread (the protocol does) and hash what a call returns before the next call.
 */
export class CanonicalJson {
  private readonly out = new Utf8Output();
  private active = false;
  /** The objects being written, outermost first: one met again while still open is a cycle. */
  private readonly open: object[] = [];
  /** Past ANCESTOR_SCAN levels the open objects are also kept here, so a deep value costs linear time. */
  private deep: Set<object> | null = null;
  private readonly layouts = new LayoutMemo();
  /** Where the telemetry's bytes start and end in the payload's, as writePayload found them. */
  private spanStart = -1;
  private spanEnd = -1;

  /** The canonical text of `value`, or null where it has none. */
  text(value: unknown): string | null {
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
    if (this.active) return new CanonicalJson().text(value);
    return this.run(value) ? decoder.decode(this.out.bytes.subarray(0, this.out.length)) : null;
  }

  /**
   * The canonical bytes of a payload without its `payload_hash` member (what payload_hash is
   * of), and within them the span of `telemetry_normalized` (what telemetry_hash is of: JCS
   * is compositional, so the canonical telemetry is where the payload's text writes it). Null
   * where either has no canonical form, or the payload has no telemetry_normalized.
   *
   * The bytes are views of this writer's buffer, valid until its next call: hash them at once.
   */
  payload(payload: Record<string, unknown>): { readonly bytes: Uint8Array; readonly telemetry: Uint8Array } | null {
    if (this.active) return new CanonicalJson().payload(payload);
    if (!this.run(payload, true)) return null;
    const bytes = this.out.bytes.subarray(0, this.out.length);
    return { bytes, telemetry: bytes.subarray(this.spanStart, this.spanEnd) };
  }

  /**
   * Writes `value` (as a payload: see `payload`) from an empty output; false for a value with
   * no canonical form, or one too deep for the stack.
   */
  private run(value: unknown, asPayload = false): boolean {
    this.active = true;
    this.out.reset();
    try {
      return asPayload ? this.writePayload(value as Record<string, unknown>) : this.write(value);
    } catch {
      return false;
    } finally {
      this.open.length = 0;
      this.deep = null;
      this.active = false;
    }
  }

  private writePayload(payload: Record<string, unknown>): boolean {
    if (!isPlainObject(payload)) return false;
    const out = this.out;
    this.spanStart = -1;
    out.byte(OPEN_BRACE);
    let first = true;
    for (const name of sortedNames(Object.keys(payload))) {
      const value = payload[name];
      if (name === 'payload_hash' || value === undefined) continue;
      if (!first) out.byte(COMMA);
      first = false;
      if (!out.string(name)) return false;
      out.byte(COLON);
      const start = out.length;
      if (!this.write(value)) return false;
      if (name === 'telemetry_normalized') {
        this.spanStart = start;
        this.spanEnd = out.length;
      }
    }
    out.byte(CLOSE_BRACE);
    return this.spanStart >= 0;
  }

  /** Writes `value`; false (output then unusable) where it has no canonical form. */
  private write(value: unknown): boolean {
    switch (typeof value) {
      case 'string':
        return this.out.string(value);
      case 'number':
        if (!Number.isFinite(value)) return false;
        this.out.number(value);
        return true;
      case 'boolean':
        this.out.copy(value ? TRUE : FALSE);
        return true;
      case 'object':
        if (value === null) {
          this.out.copy(NULL);
          return true;
        }
        return Array.isArray(value) ? this.writeArray(value) : this.writeObject(value);
      default:
        return false; // undefined, a function, a symbol, a BigInt
    }
  }

  private writeArray(array: readonly unknown[]): boolean {
    if (Object.getPrototypeOf(array) !== Array.prototype || !this.enter(array)) return false;
    const out = this.out;
    out.byte(OPEN_BRACKET);
    for (let i = 0; i < array.length; i++) {
      if (i > 0) out.byte(COMMA);
      // A hole or undefined is written `undefined` as such nowhere in JSON.
      if (!this.write(array[i])) return false;
    }
    out.byte(CLOSE_BRACKET);
    this.leave(array);
    return true;
  }

  private writeObject(object: object): boolean {
    if (!isPlainObject(object) || !this.enter(object)) return false;
    const record = object as Record<string, unknown>;
    const layout = this.layouts.of(Object.keys(record));
    const out = this.out;
    out.byte(OPEN_BRACE);
    let first = true;
    for (let i = 0; i < layout.names.length; i++) {
      const member = record[layout.names[i]!];
      if (member === undefined) continue;
      const name = (first ? layout.opening[i] : layout.following[i]) ?? null;
      if (name === null) return false; // a name with a lone surrogate has no UTF-8 form
      out.copy(name);
      if (!this.write(member)) return false;
      first = false;
    }
    out.byte(CLOSE_BRACE);
    this.leave(object);
    return true;
  }

  /** Opens `object`; false when it is already open (a cycle). A linear scan for the few levels JSON usually has. */
  private enter(object: object): boolean {
    const open = this.open;
    const depth = open.length;
    const scanned = depth < ANCESTOR_SCAN ? depth : ANCESTOR_SCAN;
    for (let i = 0; i < scanned; i++) if (open[i] === object) return false;
    if (depth >= ANCESTOR_SCAN) {
      this.deep ??= new Set();
      if (this.deep.has(object)) return false;
      this.deep.add(object);
    }
    open.push(object);
    return true;
  }

  private leave(object: object): void {
    this.open.pop();
    if (this.open.length >= ANCESTOR_SCAN) this.deep!.delete(object);
  }
}

/** The canonical text of a JSON value, or null: for a one-off; a CanonicalJson kept for many is faster. */
export function canonicalText(value: unknown): string | null {
  return new CanonicalJson().text(value);
}

const ANCESTOR_SCAN = 32;
const COLON = 0x3a;
const NULL = utf8('null');
const TRUE = utf8('true');
const FALSE = utf8('false');
// ignoreBOM: a text starting with U+FEFF keeps it (no JSON text does, but decoding must be exact).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The JSON string literal of `text`, as Utf8Output.string writes it; null for a lone surrogate. */
function quoted(text: string): string | null {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === QUOTE || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return isWellFormed(text) ? JSON.stringify(text) : null;
  }
  return '"' + text + '"';
}
