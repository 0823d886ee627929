import { utf8 } from './canonical-output.js';

/** An object layout: its names in canonical order, and the bytes to write before each value. */
export interface Layout {
  /** The names as Object.keys gave them: the memo key. */
  readonly keys: readonly string[];
  readonly names: readonly string[];
  /** `"name":` for `names[i]` as the first member written, `,"name":` after another; null for a name with a lone surrogate. */
  readonly opening: ReadonlyArray<Uint8Array | null>;
  readonly following: ReadonlyArray<Uint8Array | null>;
}

/**
 * Telemetry repeats a few object layouts many times (every event, every `data` of a kind),
 * so sorting and quoting the names is done once per layout and remembered. Keyed by the first
 * name, it holds only small layouts (so it cannot pin much memory, whatever it is fed) and is
 * emptied when full. A layout is a pure function of the names: the memo changes no result.
 */
export class LayoutMemo {
  private readonly byFirstName = new Map<string, Layout[]>();
  private count = 0;

  of(keys: string[]): Layout {
    const n = keys.length;
    if (n === 0) return EMPTY_LAYOUT;
    const first = keys[0]!;
    const known = this.byFirstName.get(first);
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
    // JSON.stringify escapes a well-formed string exactly as RFC 8785 wants (see Utf8Output.string).
    const texts = names.map((name) => (isWellFormed(name) ? JSON.stringify(name) + ':' : null));
    const layout: Layout = {
      keys,
      names,
      opening: texts.map((text) => (text === null ? null : utf8(text))),
      following: texts.map((text) => (text === null ? null : utf8(',' + text))),
    };
    if (n <= MAX_CACHED_NAMES && nameChars(keys) <= MAX_CACHED_NAME_CHARS) this.remember(first, known, layout);
    return layout;
  }

  private remember(first: string, known: Layout[] | undefined, layout: Layout): void {
    if (this.count >= MAX_LAYOUTS) {
      this.byFirstName.clear();
      this.count = 0;
      known = undefined;
    }
    if (known === undefined) this.byFirstName.set(first, [layout]);
    else {
      if (known.length >= MAX_LAYOUTS_PER_FIRST_NAME) {
        known.shift();
        this.count--;
      }
      known.push(layout);
    }
    this.count++;
  }
}

const EMPTY_LAYOUT: Layout = { keys: [], names: [], opening: [], following: [] };
const MAX_LAYOUTS = 256;
const MAX_LAYOUTS_PER_FIRST_NAME = 8;
const MAX_CACHED_NAMES = 32;
const MAX_CACHED_NAME_CHARS = 512;

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
export function sortedNames(keys: string[]): string[] {
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
export const isWellFormed: (text: string) => boolean =
  typeof nativeIsWellFormed === 'function' ? (text) => nativeIsWellFormed.call(text) : (text) => !LONE_SURROGATE.test(text);
