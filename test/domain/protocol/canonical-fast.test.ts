import test from 'ava';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { canonicalPayloadBytes, canonicalPayloadText, canonicalText } from '../../../src/domain/protocol/canonical.js';
import { legacyCanonicalPayloadText, legacyCanonicalText } from './legacy-helpers.js';

/**
 * The hand-written RFC 8785 serializer against the `canonicalize` package it replaced: the
 * same text (or null) for every value, JSON or not.
 */

const same = (value: unknown): void => assert.equal(canonicalText(value), legacyCanonicalText(value));

// ---- Arbitraries -------------------------------------------------------------------------

/** Code units and pairs that exercise escaping, UTF-8 lengths and surrogates. */
const SPECIAL_UNITS = [
  '"', '\\', '/', '\b', '\t', '\n', '\v', '\f', '\r', '\u0000', '\u0001', '\u001f', ' ', '\u007f', '\u0080', 'é', '\u07ff',
  '\u0800', '\u2028', '\u2029', '\ufeff', '\uffff', '😀', '\ud800\udc00', '\udbff\udfff', 'ﬁ', '0', '~',
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
const decimal = fc
  .tuple(fc.integer({ min: -3_000_000_000, max: 3_000_000_000 }), fc.integer({ min: 0, max: 8 }))
  .map(([m, k]) => m / 10 ** k);
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

const { value } = fc.letrec<{ value: unknown; array: unknown[]; sparse: unknown[]; object: object; odd: object; wrapped: object }>(
  (tie) => ({
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
  }),
);

/** Objects of the telemetry's kind: fixed layouts, repeated. */
const event = fc.record({
  ts: fc.constantFrom('2026-11-20T10:00:00Z', '2026-11-20T10:00:00.5+01:00'),
  topic: cleanText,
  data: fc.record({ seq: fc.nat(), x: decimal, y: number, q: fc.array(decimal, { maxLength: 3 }), ok: fc.boolean(), note: text }, { requiredKeys: [] }),
});
const telemetry = fc.record({ events: fc.array(event, { maxLength: 6 }), task_id: text, meta: value });

// ---- Differential properties -------------------------------------------------------------

test('canonicalText gives what canonicalize gave, for any value', (t) => {
  fc.assert(fc.property(value, same), { numRuns: 4000 });
  t.pass();
});

test('canonicalText gives what canonicalize gave, for telemetry-like objects', (t) => {
  fc.assert(fc.property(telemetry, same), { numRuns: 1000 });
  t.pass();
});

test('canonicalText gives what canonicalize gave, for any JSON text parsed', (t) => {
  fc.assert(
    fc.property(fc.json({ maxDepth: 4 }), (json) => {
      const parsed: unknown = JSON.parse(json);
      same(parsed);
      // Canonical text is JSON: it parses back to the same canonical text.
      const text = canonicalText(parsed);
      if (text !== null) assert.equal(canonicalText(JSON.parse(text)), text);
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

test('canonicalPayloadText gives what it gave, with and without the telemetry text', (t) => {
  const payload = fc
    .tuple(fc.array(fc.tuple(fc.oneof(name, fc.constantFrom('payload_hash', 'telemetry_normalized')), value), { maxLength: 6 }), telemetry)
    .map(([members, tel]) => {
      const object: Record<string, unknown> = { telemetry_normalized: tel };
      for (const [k, v] of members) Object.defineProperty(object, k, { value: v, enumerable: true, writable: true, configurable: true });
      return object;
    });
  fc.assert(
    fc.property(payload, fc.boolean(), (p, reuse) => {
      const telemetryText = reuse ? (canonicalText(p.telemetry_normalized) ?? undefined) : undefined;
      assert.equal(canonicalPayloadText(p, telemetryText), legacyCanonicalPayloadText(p, telemetryText));
    }),
    { numRuns: 1000 },
  );
  t.pass();
});

/** What canonicalPayloadBytes must give: the UTF-8 of the two texts, or null where either is null. */
function textsAsBytes(p: Record<string, unknown>): { payload: string; telemetry: string } | null {
  const telemetry = canonicalText(p.telemetry_normalized);
  if (telemetry === null) return null;
  const payload = canonicalPayloadText(p, telemetry);
  return payload === null ? null : { payload, telemetry };
}

const utf8Text = (bytes: Uint8Array): string => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);

test('canonicalPayloadBytes are the UTF-8 of the payload and telemetry texts, null exactly where one of them is', (t) => {
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
      const expected = textsAsBytes(p);
      const bytes = canonicalPayloadBytes(p);
      if (expected === null) {
        nulls++;
        assert.equal(bytes, null);
        return;
      }
      assert.notEqual(bytes, null);
      // The telemetry bytes are a view inside the payload's: read them before another call.
      assert.equal(utf8Text(bytes!.telemetry), expected.telemetry);
      assert.equal(utf8Text(bytes!.payload), expected.payload);
      compared++;
    }),
    { numRuns: 2000 },
  );
  // Both outcomes were exercised, not one of them only.
  t.true(compared > 100, `${compared} compared`);
  t.true(nulls > 10, `${nulls} null`);
});

test('canonicalPayloadBytes: a payload without telemetry_normalized, and a call from inside a toJSON, give null', (t) => {
  t.is(canonicalPayloadBytes({ version: '1' }), null);
  t.is(canonicalPayloadBytes({ telemetry_normalized: undefined, a: 1 }), null);
  let inner: unknown = 'not called';
  const p = { telemetry_normalized: { events: [], x: { toJSON: () => (inner = canonicalPayloadBytes({ telemetry_normalized: {} })) } } };
  const bytes = canonicalPayloadBytes(p);
  t.is(inner, null);
  t.is(utf8Text(bytes!.payload), '{"telemetry_normalized":{"events":[],"x":null}}');
  // And the serializer is sound afterwards.
  t.is(utf8Text(canonicalPayloadBytes({ b: 'é', telemetry_normalized: { a: [1.5] } })!.telemetry), '{"a":[1.5]}');
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
  t.is(canonicalText([-0, 0, -1, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 53, 1e21, -1e21, 123e20]), '[0,0,-1,2147483647,-2147483648,2147483648,9007199254740992,1e+21,-1e+21,1.23e+22]');
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
  const object = { b: 1, a: 2, '10': 3, '9': 4, '1': 5, '😀': 6, 'ﬁ': 7, '': 8, A: 9 };
  t.is(canonicalText(object), '{"":8,"1":5,"10":3,"9":4,"A":9,"a":2,"b":1,"😀":6,"ﬁ":7}');
  t.is(canonicalText(object), legacyCanonicalText(object));
});

test('a lone surrogate in the name of a member left out does not matter', (t) => {
  t.is(canonicalText({ '\ud800': undefined, a: 1 }), '{"a":1}');
  t.is(canonicalText({ '\ud800': Symbol('s'), a: 1 }), '{"a":1}');
  t.is(canonicalText({ '\ud800': 0, a: 1 }), null);
  for (const v of [{ '\ud800': undefined, a: 1 }, { '\ud800': 0, a: 1 }]) t.is(canonicalText(v), legacyCanonicalText(v));
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
      if (canonicalText(object) !== expected) return t.fail(`${JSON.stringify(object)} gave ${canonicalText(object)}`);
      // The same names in another insertion order are another layout, with the same text.
      const reversed = Object.fromEntries(Object.entries(object).reverse());
      if (canonicalText(reversed) !== expected) return t.fail(`${JSON.stringify(reversed)} gave ${canonicalText(reversed)}`);
    }
  }
  t.pass();
});

// ---- What JSON has no form for: pinned, as canonicalize gave it ---------------------------

const cycle = (): object => {
  const o: Record<string, unknown> = { a: 1 };
  o.self = o;
  return o;
};

const PINNED: Array<[string, () => unknown, string | null]> = [
  ['undefined', () => undefined, null],
  ['a function', () => fn, null],
  ['a symbol', () => Symbol('s'), null],
  ['a BigInt', () => 1n, null],
  ['NaN', () => NaN, null],
  ['Infinity', () => -Infinity, null],
  ['-0', () => -0, '0'],
  ['a member holding a function', () => ({ a: fn, b: 1 }), '{"a":undefined,"b":1}'],
  ['a member holding undefined or a symbol', () => ({ a: undefined, b: Symbol('s'), c: 1 }), '{"c":1}'],
  ['a member holding a BigInt', () => ({ a: 1n }), null],
  ['a member holding NaN', () => ({ a: NaN }), null],
  ['an array with functions', () => [fn, 1, fn, 2, fn], '[,1,,2,]'],
  ['an array with undefined and symbols', () => [undefined, Symbol('s'), 1], '[null,null,1]'],
  // eslint-disable-next-line no-sparse-arrays
  ['an array with holes', () => [, 1, , 2, ,], '[,1,,2,]'],
  ['a Date', () => new Date(0), '"1970-01-01T00:00:00.000Z"'],
  ['an invalid Date', () => ({ d: new Date(NaN) }), '{"d":null}'],
  ['a toJSON giving undefined, in a member', () => ({ a: { toJSON: () => undefined } }), '{"a":undefined}'],
  ['a toJSON giving undefined, at the top', () => ({ toJSON: () => undefined }), null],
  ['a toJSON gets no argument', () => ({ k: { toJSON: (...args: unknown[]) => args.length } }), '{"k":0}'],
  ['a toJSON giving an unsorted object', () => ({ toJSON: () => ({ b: 1, a: 2 }) }), '{"a":2,"b":1}'],
  ['a toJSON that is not a function', () => ({ toJSON: 1, a: 2 }), '{"a":2,"toJSON":1}'],
  ['an array with a toJSON', () => Object.assign([1], { toJSON: () => 'x' }), '"x"'],
  // A function is handed to JSON.stringify, which calls its toJSON and does not sort.
  ['a function with a toJSON', () => ({ f: Object.assign(() => 1, { toJSON: () => ({ b: 1, a: 2 }) }) }), '{"f":{"b":1,"a":2}}'],
  ['a boxed string', () => new String('ab'), '{"0":"a","1":"b"}'],
  ['a boxed number and boolean', () => [new Number(5), new Boolean(true)], '[{},{}]'],
  ['a Map', () => new Map([[1, 2]]), '{}'],
  ['a typed array', () => new Uint8Array([1, 2]), '{"0":1,"1":2}'],
  ['a null-prototype object', () => Object.assign(Object.create(null) as object, { b: 1, a: 2 }), '{"a":2,"b":1}'],
  ['symbol-keyed and non-enumerable members', () => Object.defineProperty({ a: 1, [Symbol('s')]: 2 }, 'h', { value: 3 }), '{"a":1}'],
  ['extra members of an array', () => Object.assign([1, 2], { x: 3 }), '[1,2]'],
  // canonicalize called array.map(...): what an array's own `map` or `constructor` does counts.
  ['an array with its own constructor', () => ({ a: Object.assign([1, 2], { constructor: 5 }) }), null],
  ['an array with its own map', () => ({ a: Object.assign([1, 2], { map: 5 }) }), null],
  ['an array with its own map function', () => Object.assign([1, 2], { map: () => ['x', 'y'] }), '[x,y]'],
  ['an array subclass', () => {
    class Items extends Array<unknown> {}
    return { a: Items.from([1, 'b', undefined, fn]) };
  }, '{"a":[1,"b",null,]}'],
  ['a cycle', cycle, null],
  ['a cycle through an array', () => {
    const a: unknown[] = [1];
    a.push({ a });
    return a;
  }, null],
  ['a toJSON giving its own object', () => {
    const o: Record<string, unknown> = {};
    o.toJSON = () => o;
    return o;
  }, null],
  ['a cycle entered past 40 levels', () => {
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
  }, null],
  ['one object twice, not a cycle', () => {
    const shared = { x: [1] };
    return { a: shared, b: [shared, shared] };
  }, '{"a":{"x":[1]},"b":[{"x":[1]},{"x":[1]}]}'],
  ['the same object twice, deeper than 40 levels', () => {
    const shared = { x: 1 };
    let node: unknown = [shared, shared];
    for (let i = 0; i < 50; i++) node = [node, shared];
    return node;
  }, 'same as canonicalize'],
];

for (const [what, make, expected] of PINNED) {
  test(`pinned: ${what}`, (t) => {
    const legacy = legacyCanonicalText(make());
    if (expected !== 'same as canonicalize') t.is(legacy, expected, 'canonicalize itself changed');
    t.is(canonicalText(make()), legacy);
  });
}

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

test('a toJSON may call canonicalText itself', (t) => {
  const shared = { z: 1, a: ['é'] };
  const value = {
    b: shared,
    a: { toJSON: () => canonicalText({ inner: shared, n: [1.5, null] }) },
    c: { toJSON: () => canonicalText(cycle()) },
  };
  const expected = '{"a":"{\\"inner\\":{\\"a\\":[\\"é\\"],\\"z\\":1},\\"n\\":[1.5,null]}","b":{"a":["é"],"z":1},"c":null}';
  t.is(legacyCanonicalText(value), expected);
  t.is(canonicalText(value), expected);
  t.is(canonicalText(value), expected);
});

test('after a value with no canonical form, the next one is right', (t) => {
  t.is(canonicalText({ a: [1, { b: [2, 3n] }] }), null);
  t.is(canonicalText({ a: [1, { b: [2, '\udc00'] }] }), null);
  t.is(canonicalText(cycle()), null);
  t.is(canonicalText({ a: [1, { b: [2, 3] }] }), '{"a":[1,{"b":[2,3]}]}');
});
