import test from 'ava';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { CanonicalJson, canonicalText } from '../../../src/domain/protocol/canonical.js';
import { canonicalProblem } from '../../../src/domain/protocol/canonical-problems.js';
import { legacyCanonicalPayloadText, legacyCanonicalText } from './legacy-helpers.js';

/**
 * The hand-written RFC 8785 writer against the `canonicalize` package, the oracle: the same
 * text for every JSON value, and null for every value that is not JSON (which canonicalize
 * would write in ways of its own).
 */

/** What CanonicalJson takes, written independently: JSON values, members holding undefined left out. */
function isJsonValue(value: unknown, open = new Set<object>()): boolean {
  switch (typeof value) {
    case 'string':
      return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);
    case 'number':
      return Number.isFinite(value);
    case 'boolean':
      return true;
    case 'object': {
      if (value === null) return true;
      if (open.has(value)) return false;
      open.add(value);
      try {
        if (Array.isArray(value)) {
          if (Object.getPrototypeOf(value) !== Array.prototype) return false;
          for (let i = 0; i < value.length; i++) if (!(i in value) || !isJsonValue(value[i], open)) return false;
          return true;
        }
        const proto: unknown = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) return false;
        return Object.entries(value).every(([name, member]) => member === undefined || (isJsonValue(name) && isJsonValue(member, open)));
      } finally {
        open.delete(value);
      }
    }
    default:
      return false;
  }
}

/**
 * A copy of a JSON value with nothing but its JSON: canonicalize called an array's own `map`
 * and `constructor`, which a JSON value's extra members must not decide.
 */
function jsonCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (let i = 0; i < value.length; i++) copy.push(jsonCopy(value[i]));
    return copy;
  }
  const copy: Record<string, unknown> = {};
  // defineProperty: a name "__proto__" must be a member, not the prototype.
  for (const [k, v] of Object.entries(value)) Object.defineProperty(copy, k, { value: jsonCopy(v), enumerable: true, writable: true, configurable: true });
  return copy;
}

/** What canonicalize writes for a JSON value: the oracle. */
const oracle = (value: unknown): string | null => legacyCanonicalText(jsonCopy(value));

const same = (value: unknown): void => assert.equal(canonicalText(value), isJsonValue(value) ? oracle(value) : null);

// ---- Arbitraries -------------------------------------------------------------------------

/** Code units and pairs that exercise escaping, UTF-8 lengths and surrogates. */
const SPECIAL_UNITS = [
  '"',
  '\\',
  '/',
  '\b',
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  '\u0000',
  '\u0001',
  '\u001f',
  ' ',
  '\u007f',
  '\u0080',
  'é',
  '\u07ff',
  '\u0800',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\uffff',
  '😀',
  '\ud800\udc00',
  '\udbff\udfff',
  'ﬁ',
  '0',
  '~',
];
const LONE_SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800'];

const unit = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 4 }) },
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_UNITS) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 2 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 2 }) },
);
/** Well-formed text, mostly. */
const cleanText = fc.array(unit, { maxLength: 6 }).map((units) => units.join(''));
/** Text with, now and then, a lone surrogate somewhere. */
const text = fc.oneof(
  { weight: 15, arbitrary: cleanText },
  { weight: 1, arbitrary: fc.tuple(cleanText, fc.constantFrom(...LONE_SURROGATES), cleanText).map(([a, b, c]) => a + b + c) },
);

/** Member names: a small pool (so layouts repeat), array-index-like names, and any text. */
const name = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('a', 'b', 'ts', 'topic', 'data', 'x', 'y', 'q', 'seq', 'note', 'A', 'aa', 'é', '😀', 'ﬁ', '') },
  { weight: 2, arbitrary: fc.constantFrom('0', '1', '9', '10', '-1', '01', '4294967295', '__proto__', 'toJSON', 'constructor', 'map') },
  { weight: 3, arbitrary: text },
);

/** Decimals with up to 8 fraction digits, around and across the serializer's fast paths. */
const decimal = fc.tuple(fc.integer({ min: -3_000_000_000, max: 3_000_000_000 }), fc.integer({ min: 0, max: 8 })).map(([m, k]) => m / 10 ** k);
const number = fc.oneof(
  fc.double(),
  fc.integer(),
  decimal,
  fc.double({ min: -1e10, max: 1e10, noNaN: true }),
  fc.constantFrom(0, -0, 1e-6, 1e-7, 9.99999e-7, 999_999_999.999999, 1e9, 1e21, 1e-21, 2 ** 31, -(2 ** 31), 2 ** 31 - 1, 2 ** 53, 0.1 + 0.2),
  fc.constantFrom(Number.MAX_VALUE, Number.MIN_VALUE, Number.EPSILON, NaN, Infinity, -Infinity),
);

const fn = (): number => 1;
/** Values JSON has no form for, and objects with a toJSON. */
const exotic = fc.oneof(
  fc.constantFrom<unknown>(undefined, fn, Symbol('s'), new Date(NaN), new Map([[1, 2]]), new Uint8Array([1, 2]), Object.create(null)),
  fc.bigInt(),
  fc.date({ noInvalidDate: false }),
  fc.constant(Object.assign(() => 2, { toJSON: () => ({ b: 1, a: [2, '\u0001'] }) })),
  cleanText.map((t) => new String(t)),
  number.map((n) => new Number(n)),
  fc.boolean().map((b) => new Boolean(b)),
);

const leaf = fc.oneof(
  { weight: 5, arbitrary: text },
  { weight: 5, arbitrary: number },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(true, false, null) },
  { weight: 2, arbitrary: exotic },
);

const { value } = fc.letrec<{ value: unknown; array: unknown[]; sparse: unknown[]; object: object; odd: object; wrapped: object }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 5 },
    { weight: 6, arbitrary: leaf },
    { weight: 2, arbitrary: tie('array') },
    { weight: 1, arbitrary: tie('sparse') },
    { weight: 3, arbitrary: tie('object') },
    { weight: 1, arbitrary: tie('odd') },
    { weight: 1, arbitrary: tie('wrapped') },
  ),
  array: fc.array(tie('value'), { maxLength: 5 }),
  /** Arrays with holes. */
  sparse: fc.tuple(fc.array(tie('value'), { maxLength: 5 }), fc.array(fc.nat(5))).map(([items, holes]) => {
    const array = [...items, undefined];
    for (const i of holes) delete array[i];
    return array;
  }),
  object: fc.array(fc.tuple(name, tie('value')), { maxLength: 6 }).map((members) => {
    const object: Record<string, unknown> = {};
    // defineProperty: a name "__proto__" must be a member, not the prototype.
    for (const [k, v] of members) Object.defineProperty(object, k, { value: v, enumerable: true, writable: true, configurable: true });
    return object;
  }),
  /** Objects with what Object.keys leaves out, a null prototype, or extra array members. */
  odd: fc.tuple(tie('object'), fc.constantFrom('symbol', 'hidden', 'null-prototype', 'array-extra')).map(([object, kind]) => {
    if (kind === 'symbol') return Object.assign(object, { [Symbol('k')]: 1 });
    if (kind === 'hidden') return Object.defineProperty(object, 'hidden', { value: 1, enumerable: false });
    if (kind === 'null-prototype') return Object.assign(Object.create(null) as object, object);
    return Object.assign([1, 2], object);
  }),
  /** Objects whose toJSON gives another value, to be serialized in their place. */
  wrapped: tie('value').map((inner) => ({ toJSON: () => inner, ignored: 1 })),
}));

/** Objects of the telemetry's kind: fixed layouts, repeated. */
const event = fc.record({
  ts: fc.constantFrom('2026-11-20T10:00:00Z', '2026-11-20T10:00:00.5+01:00'),
  topic: cleanText,
  data: fc.record({ seq: fc.nat(), x: decimal, y: number, q: fc.array(decimal, { maxLength: 3 }), ok: fc.boolean(), note: text }, { requiredKeys: [] }),
});
const telemetry = fc.record({ events: fc.array(event, { maxLength: 6 }), task_id: text, meta: value });

// ---- Differential properties -------------------------------------------------------------

/** One writer for many values, as the protocol keeps one: nothing of one value may leak into the next. */
const kept = new CanonicalJson();

/** Checks `value` both ways; counts the values that were JSON and those that were not. */
function differential(counts: { json: number; other: number }) {
  return (value: unknown): void => {
    const json = isJsonValue(value);
    assert.equal(kept.text(value), json ? oracle(value) : null);
    if (json) counts.json++;
    else counts.other++;
  };
}

test('canonical text is what canonicalize writes for any JSON value, and null for any other value', (t) => {
  const counts = { json: 0, other: 0 };
  fc.assert(fc.property(value, differential(counts)), { numRuns: 4000 });
  // Both kinds were exercised, not one of them only.
  t.true(counts.json > 1000 && counts.other > 500, JSON.stringify(counts));
});

test('canonical text is what canonicalize writes for telemetry-like objects', (t) => {
  const counts = { json: 0, other: 0 };
  fc.assert(fc.property(telemetry, differential(counts)), { numRuns: 1000 });
  t.true(counts.json > 200, JSON.stringify(counts));
});

test('canonical text is what canonicalize writes for any JSON text parsed', (t) => {
  fc.assert(
    fc.property(fc.json({ maxDepth: 4 }), (json) => {
      const parsed: unknown = JSON.parse(json);
      same(parsed);
      // Canonical text is JSON: it parses back to the same canonical text.
      const text = kept.text(parsed);
      if (text !== null) assert.equal(kept.text(JSON.parse(text)), text);
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

const utf8Text = (bytes: Uint8Array): string => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);

test('payload bytes are canonicalize’s payload text without payload_hash, the telemetry its span; null exactly where the payload is not JSON', (t) => {
  const payload = fc
    .tuple(fc.array(fc.tuple(fc.oneof(name, fc.constantFrom('payload_hash', 'telemetry_normalized', 'meta')), value), { maxLength: 6 }), telemetry)
    .map(([members, tel]) => {
      const object: Record<string, unknown> = { telemetry_normalized: tel };
      for (const [k, v] of members) Object.defineProperty(object, k, { value: v, enumerable: true, writable: true, configurable: true });
      return object;
    });
  let compared = 0;
  let nulls = 0;
  fc.assert(
    fc.property(payload, (p) => {
      const { payload_hash: _ignored, ...hashed } = p;
      const json = isJsonValue(hashed) && p.telemetry_normalized !== undefined;
      const written = kept.payload(p);
      if (!json) {
        nulls++;
        assert.equal(written, null);
        return;
      }
      assert.notEqual(written, null);
      // The telemetry bytes are a view inside the payload's: read them before another call.
      assert.equal(utf8Text(written!.telemetry), oracle(p.telemetry_normalized));
      assert.equal(utf8Text(written!.bytes), legacyCanonicalPayloadText(jsonCopy(hashed) as Record<string, unknown>));
      compared++;
    }),
    { numRuns: 2000 },
  );
  t.true(compared > 100, `${compared} compared`);
  t.true(nulls > 10, `${nulls} null`);
});

test('payload bytes: none without telemetry_normalized; a call made while another runs gets its own right answer', (t) => {
  t.is(kept.payload({ version: '1' }), null);
  t.is(kept.payload({ telemetry_normalized: undefined, a: 1 }), null);
  // A getter (an accessor member of a plain object) runs while the outer call writes.
  const p = {
    telemetry_normalized: {
      events: [],
      get inner() {
        return utf8Text(kept.payload({ telemetry_normalized: { z: 1 }, b: 'é' })!.bytes);
      },
    },
  };
  t.is(utf8Text(kept.payload(p)!.bytes), '{"telemetry_normalized":{"events":[],"inner":"{\\"b\\":\\"é\\",\\"telemetry_normalized\\":{\\"z\\":1}}"}}');
  // And the writer is sound afterwards.
  t.is(utf8Text(kept.payload({ b: 'é', telemetry_normalized: { a: [1.5] } })!.telemetry), '{"a":[1.5]}');
});

// ---- Numbers: the digit-by-digit paths against Number::toString --------------------------

test('decimals are written as Number::toString writes them, around every fast-path bound', (t) => {
  let checked = 0;
  const check = (x: number): void => {
    const expected = JSON.stringify(x);
    if (canonicalText([x]) !== `[${expected}]`) assert.fail(`${expected} written as ${canonicalText([x])}`);
    checked++;
  };
  for (let k = 0; k <= 8; k++) {
    const scale = 10 ** k;
    for (let m = -3000; m <= 3000; m++) check(m / scale);
    for (const near of [1e-6, 1e-5, 1, 1e6, 1e9, 2 ** 31, 2 ** 53]) {
      const m0 = Math.round(near * scale);
      if (m0 > 2 ** 52) continue; // m++ must still count
      for (let m = m0 - 50; m <= m0 + 50; m++) {
        check(m / scale);
        check(-m / scale);
      }
    }
  }
  for (const x of [1e-6, 1e-7, 9.999999e-7, 1.5e-6, 999_999_999.5, 999_999_999.999999, 1e9 + 0.5, 2 ** 31 - 0.5, 0.1 + 0.2, 1 / 3]) {
    check(x);
    check(-x);
    check(x * (1 + Number.EPSILON));
  }
  // Doubles of every magnitude, most of them with 17 significant digits (the slow path).
  fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), check), { numRuns: 20000 });
  fc.assert(fc.property(fc.double({ min: 1e-7, max: 1e10, noNaN: true }), check), { numRuns: 20000 });
  t.true(checked > 100_000);
});

test('-0 is written 0, integers of any size as Number::toString writes them', (t) => {
  t.is(canonicalText(-0), '0');
  t.is(
    canonicalText([-0, 0, -1, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 53, 1e21, -1e21, 123e20]),
    '[0,0,-1,2147483647,-2147483648,2147483648,9007199254740992,1e+21,-1e+21,1.23e+22]',
  );
});

// ---- Strings -----------------------------------------------------------------------------

test('every control character, quote and backslash is escaped as RFC 8785 says', (t) => {
  for (let c = 0; c < 0x80; c++) {
    const s = String.fromCharCode(c);
    t.is(canonicalText([s]), `[${JSON.stringify(s)}]`);
    t.is(canonicalText(s), JSON.stringify(s));
  }
  t.is(canonicalText(['\b\t\n\f\r\u000b\u001f"\\/']), '["\\b\\t\\n\\f\\r\\u000b\\u001f\\"\\\\/"]');
});

test('non-ASCII text round-trips through UTF-8 exactly, and any lone surrogate gives null', (t) => {
  const texts = ['é', '\u07ff', '\u0800', '\uffff', '\ufeff', '\ufeffx', '😀', '\u{10ffff}', 'a\u2028b'];
  for (const s of texts) {
    t.is(canonicalText({ [s]: [s] }), `{${JSON.stringify(s)}:[${JSON.stringify(s)}]}`);
    t.is(canonicalText([s]), legacyCanonicalText([s]));
  }
  for (const lone of ['\ud800', 'a\udbff', '\udc00b', '\udfff\ud800', '\ud800\ud800\udc00']) {
    t.is(canonicalText([lone]), null);
    t.is(canonicalText(lone), null);
    t.is(canonicalText({ [lone]: 1 }), null);
    t.is(legacyCanonicalText([lone]), null);
  }
});

test('a long string grows the buffer, and the next text is still right', (t) => {
  const long = 'é😀"\n'.repeat(100_000); // 1.1 MB of UTF-8, escapes included
  t.is(canonicalText({ long }), legacyCanonicalText({ long }));
  t.is(canonicalText({ a: [1, 'x'] }), '{"a":[1,"x"]}');
  const ascii = 'x'.repeat(40_000);
  t.is(canonicalText([ascii, ascii]), `["${ascii}","${ascii}"]`);
});

// ---- Member names and the layout memo ----------------------------------------------------

test('member names sort by UTF-16 code units, array-index-like names included', (t) => {
  const object = { b: 1, a: 2, '10': 3, '9': 4, '1': 5, '😀': 6, ﬁ: 7, '': 8, A: 9 };
  t.is(canonicalText(object), '{"":8,"1":5,"10":3,"9":4,"A":9,"a":2,"b":1,"😀":6,"ﬁ":7}');
  t.is(canonicalText(object), legacyCanonicalText(object));
});

test('a lone surrogate in the name of a member left out (undefined) does not matter', (t) => {
  t.is(canonicalText({ '\ud800': undefined, a: 1 }), '{"a":1}');
  t.is(canonicalText({ '\ud800': 0, a: 1 }), null);
  t.is(canonicalText({ '\ud800': Symbol('s'), a: 1 }), null, 'a symbol is not left out: it is not JSON');
  for (const v of [
    { '\ud800': undefined, a: 1 },
    { '\ud800': 0, a: 1 },
  ])
    t.is(canonicalText(v), legacyCanonicalText(v));
});

test('many layouts, big layouts and long names stay right through the memo', (t) => {
  const objects: Array<Record<string, unknown>> = [];
  for (let i = 0; i < 600; i++) {
    // 600 layouts, 30 of them for each first name: past every bound of the memo.
    const object: Record<string, unknown> = { [`first${i % 20}`]: i };
    for (let k = 0; k <= i % 7; k++) object[`m${(i * 7 + k) % 13}`] = k;
    objects.push(object);
  }
  const wide = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${(i * 17) % 40}`, i]));
  const longNames = { ['n'.repeat(600)]: 1, ['m'.repeat(600)]: 2 };
  const sortedByArraySort = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${(i * 7) % 20}`.padStart(2, 'z'), i]));
  for (let round = 0; round < 3; round++) {
    for (const object of [...objects, wide, longNames, sortedByArraySort]) {
      const expected = legacyCanonicalText(object);
      if (kept.text(object) !== expected) return t.fail(`${JSON.stringify(object)} gave ${kept.text(object)}`);
      // The same names in another insertion order are another layout, with the same text.
      const reversed = Object.fromEntries(Object.entries(object).reverse());
      if (kept.text(reversed) !== expected) return t.fail(`${JSON.stringify(reversed)} gave ${kept.text(reversed)}`);
    }
  }
  t.pass();
});

// ---- What is not JSON: refused, each kind pinned ----------------------------------------

const cycle = (): object => {
  const o: Record<string, unknown> = { a: 1 };
  o.self = o;
  return o;
};

/** Values that are not JSON, however canonicalize would have written them: each has no canonical form. */
const REFUSED: Array<[string, () => unknown]> = [
  ['undefined', () => undefined],
  ['a function', () => fn],
  ['a symbol', () => Symbol('s')],
  ['a BigInt', () => 1n],
  ['NaN', () => NaN],
  ['Infinity', () => -Infinity],
  ['a member holding a function', () => ({ a: fn, b: 1 })],
  ['a member holding a symbol', () => ({ b: Symbol('s'), c: 1 })],
  ['a member holding a BigInt', () => ({ a: 1n })],
  ['a member holding NaN', () => ({ a: NaN })],
  ['an array with a function', () => [1, fn]],
  ['an array with undefined', () => [undefined, 1]],
  // eslint-disable-next-line no-sparse-arrays
  ['an array with holes', () => [, 1]],
  ['a Date', () => new Date(0)],
  ['a Date in a member', () => ({ d: new Date(0) })],
  ['an object with a toJSON', () => ({ toJSON: () => ({ b: 1 }) })],
  ['a boxed string', () => new String('ab')],
  ['a boxed number and boolean', () => [new Number(5), new Boolean(true)]],
  ['a Map', () => new Map([[1, 2]])],
  ['a typed array', () => new Uint8Array([1, 2])],
  [
    'an instance of a class',
    () =>
      new (class Point {
        x = 1;
      })(),
  ],
  [
    'an array subclass',
    () => {
      class Items extends Array<unknown> {}
      return { a: Items.from([1, 'b']) };
    },
  ],
  ['a cycle', cycle],
  [
    'a cycle through an array',
    () => {
      const a: unknown[] = [1];
      a.push({ a });
      return a;
    },
  ],
  [
    'a cycle entered past 40 levels',
    () => {
      const root: Record<string, unknown> = {};
      let node = root;
      const chain: Array<Record<string, unknown>> = [];
      for (let i = 0; i < 45; i++) {
        const next: Record<string, unknown> = { i };
        node.next = next;
        chain.push(next);
        node = next;
      }
      node.back = chain[40];
      return root;
    },
  ],
];

for (const [what, make] of REFUSED) {
  test(`refused: ${what}`, (t) => {
    t.false(isJsonValue(make()));
    t.is(canonicalText(make()), null);
    t.is(kept.text(make()), null);
    t.not(canonicalProblem(make(), 'x'), null, 'and the problem is named');
  });
}

/** JSON values at the edges: the very text canonicalize writes. */
const WRITTEN: Array<[string, () => unknown, string]> = [
  ['-0', () => -0, '0'],
  ['members holding undefined are left out', () => ({ a: undefined, c: 1 }), '{"c":1}'],
  ['a member named toJSON that is not a function', () => ({ toJSON: 1, a: 2 }), '{"a":2,"toJSON":1}'],
  ['a null-prototype object', () => Object.assign(Object.create(null) as object, { b: 1, a: 2 }), '{"a":2,"b":1}'],
  ['symbol-keyed and non-enumerable members', () => Object.defineProperty({ a: 1, [Symbol('s')]: 2 }, 'h', { value: 3 }), '{"a":1}'],
  ['extra members of an array', () => Object.assign([1, 2], { x: 3 }), '[1,2]'],
  ['an array with members named map and constructor', () => ({ a: Object.assign([1, 2], { map: 5, constructor: 5 }) }), '{"a":[1,2]}'],
  [
    'one object twice, not a cycle',
    () => {
      const shared = { x: [1] };
      return { a: shared, b: [shared, shared] };
    },
    '{"a":{"x":[1]},"b":[{"x":[1]},{"x":[1]}]}',
  ],
];

for (const [what, make, expected] of WRITTEN) {
  test(`written: ${what}`, (t) => {
    t.is(oracle(make()), expected, 'canonicalize itself changed');
    t.is(canonicalText(make()), expected);
    t.is(kept.text(make()), expected);
  });
}

test('the same object twice, deeper than 40 levels, is no cycle', (t) => {
  const shared = { x: 1 };
  let node: unknown = [shared, shared];
  for (let i = 0; i < 50; i++) node = [node, shared];
  t.is(kept.text(node), legacyCanonicalText(node));
  t.not(kept.text(node), null);
});

test('a cycle entered deep down is caught the first time round, not by running out of stack', (t) => {
  let reads = 0;
  const root: Record<string, unknown> = {};
  let node = root;
  for (let i = 0; i < 60; i++) {
    const next: Record<string, unknown> = {};
    if (i === 45) {
      const target = node;
      Object.defineProperty(next, 'back', {
        enumerable: true,
        get: () => {
          reads++;
          return target;
        },
      });
    }
    node.next = next;
    node = next;
  }
  t.is(canonicalText(root), null);
  t.is(reads, 1);
});

test('nesting: 1000 levels serialize; 100 000 levels, which overflow the stack, give null', (t) => {
  for (const levels of [40, 1000]) {
    let objects: unknown = 1;
    let arrays: unknown = 1;
    for (let i = 0; i < levels; i++) {
      objects = { a: objects };
      arrays = [arrays];
    }
    t.is(canonicalText(objects), legacyCanonicalText(objects));
    t.is(canonicalText(arrays), legacyCanonicalText(arrays));
    t.not(canonicalText(arrays), null);
  }
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  t.is(legacyCanonicalText(deep), null);
  t.is(canonicalText(deep), null);
  // And the serializer is still in a sound state afterwards.
  t.is(canonicalText({ b: [1, { c: 'x' }], a: 0.5 }), '{"a":0.5,"b":[1,{"c":"x"}]}');
});

test('after a value with no canonical form, the next one is right', (t) => {
  t.is(kept.text({ a: [1, { b: [2, 3n] }] }), null);
  t.is(kept.text({ a: [1, { b: [2, '\udc00'] }] }), null);
  t.is(kept.text(cycle()), null);
  t.is(kept.text({ a: [1, { b: [2, 3] }] }), '{"a":[1,{"b":[2,3]}]}');
});
