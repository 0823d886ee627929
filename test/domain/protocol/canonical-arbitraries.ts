import fc from 'fast-check';

// The values the canonical-fast*.test.ts properties draw.
/** Code units and pairs that exercise escaping, UTF-8 lengths and surrogates. */
export const SPECIAL_UNITS = [
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
export const LONE_SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800'];

export const unit = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 4 }) },
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_UNITS) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 2 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 2 }) },
);
/** Well-formed text, mostly. */
export const cleanText = fc.array(unit, { maxLength: 6 }).map((units) => units.join(''));
/** Text with, now and then, a lone surrogate somewhere. */
export const text = fc.oneof(
  { weight: 15, arbitrary: cleanText },
  { weight: 1, arbitrary: fc.tuple(cleanText, fc.constantFrom(...LONE_SURROGATES), cleanText).map(([a, b, c]) => a + b + c) },
);

/** Member names: a small pool (so layouts repeat), array-index-like names, and any text. */
export const name = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('a', 'b', 'ts', 'topic', 'data', 'x', 'y', 'q', 'seq', 'note', 'A', 'aa', 'é', '😀', 'ﬁ', '') },
  { weight: 2, arbitrary: fc.constantFrom('0', '1', '9', '10', '-1', '01', '4294967295', '__proto__', 'toJSON', 'constructor', 'map') },
  { weight: 3, arbitrary: text },
);

/** Decimals with up to 8 fraction digits, around and across the serializer's fast paths. */
export const decimal = fc.tuple(fc.integer({ min: -3_000_000_000, max: 3_000_000_000 }), fc.integer({ min: 0, max: 8 })).map(([m, k]) => m / 10 ** k);
export const number = fc.oneof(
  fc.double(),
  fc.integer(),
  decimal,
  fc.double({ min: -1e10, max: 1e10, noNaN: true }),
  fc.constantFrom(0, -0, 1e-6, 1e-7, 9.99999e-7, 999_999_999.999999, 1e9, 1e21, 1e-21, 2 ** 31, -(2 ** 31), 2 ** 31 - 1, 2 ** 53, 0.1 + 0.2),
  fc.constantFrom(Number.MAX_VALUE, Number.MIN_VALUE, Number.EPSILON, NaN, Infinity, -Infinity),
);

export const fn = (): number => 1;
/** Values JSON has no form for, and objects with a toJSON. */
export const exotic = fc.oneof(
  fc.constantFrom<unknown>(undefined, fn, Symbol('s'), new Date(NaN), new Map([[1, 2]]), new Uint8Array([1, 2]), Object.create(null)),
  fc.bigInt(),
  fc.date({ noInvalidDate: false }),
  fc.constant(Object.assign(() => 2, { toJSON: () => ({ b: 1, a: [2, '\u0001'] }) })),
  cleanText.map((t) => new String(t)),
  number.map((n) => new Number(n)),
  fc.boolean().map((b) => new Boolean(b)),
);

export const leaf = fc.oneof(
  { weight: 5, arbitrary: text },
  { weight: 5, arbitrary: number },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(true, false, null) },
  { weight: 2, arbitrary: exotic },
);

export const { value } = fc.letrec<{ value: unknown; array: unknown[]; sparse: unknown[]; object: object; odd: object; wrapped: object }>((tie) => ({
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
export const event = fc.record({
  ts: fc.constantFrom('2026-11-20T10:00:00Z', '2026-11-20T10:00:00.5+01:00'),
  topic: cleanText,
  data: fc.record({ seq: fc.nat(), x: decimal, y: number, q: fc.array(decimal, { maxLength: 3 }), ok: fc.boolean(), note: text }, { requiredKeys: [] }),
});
export const telemetry = fc.record({ events: fc.array(event, { maxLength: 6 }), task_id: text, meta: value });
