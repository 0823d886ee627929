import * as E from 'fp-ts/lib/Either.js';

/**
 * JSON as received, with each number's text kept: the ACTO form (docs/protocol.md) writes `56.0`
 * and `56` differently, and a parsed JavaScript value has lost which one was sent. Objects are
 * Maps (a member named `__proto__` is an ordinary member, as JSON.parse makes it), in the order
 * JSON.parse gives their own keys; a name given twice keeps its first place and its last value,
 * as JSON.parse does.
 */
export type ReceivedJson = null | boolean | string | NumberText | ReceivedJson[] | ReceivedObject;
export type ReceivedObject = Map<string, ReceivedJson>;

/** A number as written in the received text (`56.0`, `1e-07`, `9007199254740993`). */
export class NumberText {
  constructor(readonly text: string) {}
}

export interface JsonTextProblem {
  readonly problem: string;
  /** Offset in the text (UTF-16 code units) where the problem is. */
  readonly position: number;
  /** The text nests deeper than the limit it was read with (it may be valid JSON). */
  readonly tooDeep: boolean;
}

/**
 * Parses `text` as JSON.parse does, refusing exactly what it refuses (RFC 8259: no trailing
 * commas, no leading zeros, no raw control characters in strings, only space, tab, LF and CR
 * as white space, a byte order mark included), and keeping each number's text. Like
 * JSON.parse it accepts a lone surrogate, escaped or raw, inside a string: such a string has
 * no canonical form, which the checks that hash it report.
 *
 * Linear in the text's length, iterative (no recursion, whatever the nesting), and refusing
 * objects and arrays nested more than `maxDepth` levels (`{}` is one level, as jsonDepth counts).
 */
export function parseReceivedJson(text: string, maxDepth: number): E.Either<JsonTextProblem, ReceivedJson> {
  try {
    return E.right(new Reader(text, maxDepth).document());
  } catch (error) {
    if (error instanceof NotJson) return E.left({ problem: error.message, position: error.position, tooDeep: error.tooDeep });
    throw error;
  }
}

/**
 * The exact text of the member `name` of the object `text` holds (the last one given, whose
 * value JSON.parse keeps), or undefined when `text` is not a JSON object nesting at most
 * `maxDepth` levels, or has no such member. The slice is the member's value as it was sent
 * (its numbers' spelling, its escapes), whatever else the text holds: a request body's
 * `envelope`, to be checked and stored as received.
 */
export function receivedMemberText(text: string, name: string, maxDepth: number): string | undefined {
  const reader = new Reader(text, maxDepth);
  try {
    if (!(reader.document() instanceof Map)) return undefined;
  } catch (error) {
    if (error instanceof NotJson) return undefined;
    throw error;
  }
  const span = reader.spans.get(name);
  return span === undefined ? undefined : text.slice(span[0], span[1]);
}

/** The member `name` of a received object, or undefined when it is not an object or has none. */
export function receivedMember(value: ReceivedJson | undefined, name: string): ReceivedJson | undefined {
  return value instanceof Map ? value.get(name) : undefined;
}

/** The value JSON.parse gives for the same text. */
export function parsedValueOf(value: ReceivedJson): unknown {
  if (value instanceof NumberText) return Number(value.text);
  if (Array.isArray(value)) return value.map(parsedValueOf);
  // Object.fromEntries defines own members, so `__proto__` stays a member, as JSON.parse makes it.
  if (value instanceof Map) return Object.fromEntries([...value].map(([name, member]) => [name, parsedValueOf(member)]));
  return value;
}

class NotJson extends Error {
  constructor(
    message: string,
    readonly position: number,
    readonly tooDeep = false,
  ) {
    super(message);
  }
}

type Frame = { readonly array: ReceivedJson[] } | { readonly object: ReceivedObject; name: string };

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
/** What ends a run of ordinary characters in a string: its closing quote, an escape, a control character. */
// eslint-disable-next-line no-control-regex -- finding the control characters JSON forbids raw is the point
const STRING_SPECIAL = /["\\\u0000-\u001f]/g;
const ESCAPED = new Map([
  ['"', '"'],
  ['\\', '\\'],
  ['/', '/'],
  ['b', '\b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
]);
const HEX4 = /^[0-9a-fA-F]{4}$/;

class Reader {
  private at = 0;
  /** Where each member of the outermost object has its value in the text (start, end). */
  readonly spans = new Map<string, readonly [number, number]>();
  private memberStart = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  document(): ReceivedJson {
    const stack: Frame[] = [];
    this.space();
    for (;;) {
      if (stack.length === 1) this.memberStart = this.at;
      let value: ReceivedJson | undefined = this.scalarOrOpen(stack);
      // A container was opened: its first value comes next.
      if (value === undefined) continue;
      // A value is complete: it goes into its container, which may complete in turn.
      for (;;) {
        const frame = stack[stack.length - 1];
        if (stack.length === 1 && frame !== undefined && !('array' in frame)) this.spans.set(frame.name, [this.memberStart, this.at]);
        this.space();
        if (frame === undefined) {
          if (this.at !== this.text.length) this.fail('unexpected text after the JSON value');
          return value;
        }
        const c = this.text[this.at];
        if ('array' in frame) {
          frame.array.push(value);
          if (c === ']') {
            this.at++;
            stack.pop();
            value = frame.array;
            continue;
          }
        } else {
          frame.object.set(frame.name, value);
          if (c === '}') {
            this.at++;
            stack.pop();
            value = frame.object;
            continue;
          }
        }
        if (c !== ',') this.fail(`expected ',' or '${'array' in frame ? ']' : '}'}'`);
        this.at++;
        this.space();
        if (!('array' in frame)) frame.name = this.memberName();
        break;
      }
    }
  }

  /** A scalar, an empty container, or undefined after opening a non-empty one (pushed on `stack`). */
  private scalarOrOpen(stack: Frame[]): ReceivedJson | undefined {
    const text = this.text;
    const c = text[this.at];
    if (c === '{' || c === '[') {
      if (stack.length + 1 > this.maxDepth) this.fail(`nested more than ${this.maxDepth} levels deep`, this.at, true);
      this.at++;
      this.space();
      if (text[this.at] === (c === '{' ? '}' : ']')) {
        this.at++;
        return c === '{' ? new Map() : [];
      }
      stack.push(c === '[' ? { array: [] } : { object: new Map(), name: this.memberName() });
      return undefined;
    }
    if (c === '"') return this.string();
    const literal = c === 't' ? 'true' : c === 'f' ? 'false' : c === 'n' ? 'null' : undefined;
    if (literal !== undefined) {
      if (!text.startsWith(literal, this.at)) this.fail(`unexpected character ${JSON.stringify(c)}`);
      this.at += literal.length;
      return c === 'n' ? null : c === 't';
    }
    NUMBER.lastIndex = this.at;
    const number = NUMBER.exec(text);
    if (number === null) this.fail(c === undefined ? 'unexpected end of the text' : `unexpected character ${JSON.stringify(c)}`);
    this.at += number[0].length;
    return new NumberText(number[0]);
  }

  /** A member's name and its colon; the value follows. */
  private memberName(): string {
    if (this.text[this.at] !== '"') this.fail('expected a member name in double quotes');
    const name = this.string();
    this.space();
    if (this.text[this.at] !== ':') this.fail("expected ':' after a member name");
    this.at++;
    this.space();
    return name;
  }

  private string(): string {
    const text = this.text;
    let parts: string[] | null = null;
    let run = ++this.at;
    for (;;) {
      STRING_SPECIAL.lastIndex = this.at;
      const special = STRING_SPECIAL.exec(text);
      if (special === null) this.fail('unterminated string', text.length);
      const at = special.index;
      const c = text[at]!;
      if (c === '"') {
        this.at = at + 1;
        const last = text.slice(run, at);
        return parts === null ? last : parts.join('') + last;
      }
      if (c !== '\\') this.fail('raw control character in a string', at);
      (parts ??= []).push(text.slice(run, at));
      const escape = text[at + 1];
      if (escape === 'u') {
        const hex = text.slice(at + 2, at + 6);
        if (!HEX4.test(hex)) this.fail('\\u must be followed by four hex digits', at);
        parts.push(String.fromCharCode(parseInt(hex, 16)));
        this.at = at + 6;
      } else {
        const decoded = escape === undefined ? undefined : ESCAPED.get(escape);
        if (decoded === undefined) this.fail('invalid escape in a string', at);
        parts.push(decoded);
        this.at = at + 2;
      }
      run = this.at;
    }
  }

  private space(): void {
    const text = this.text;
    let at = this.at;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      at++;
    }
    this.at = at;
  }

  private fail(problem: string, position = this.at, tooDeep = false): never {
    throw new NotJson(problem, position, tooDeep);
  }
}
