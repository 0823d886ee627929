import test from 'ava';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { DEFAULT_LIMITS, jsonDepth } from '../../../src/domain/protocol/limits.js';
import { legacyJsonDepth } from './legacy-helpers.js';

/** jsonDepth, recursive under a small cap and iterative otherwise, against the old stack walk. */

// ---- Arbitraries -------------------------------------------------------------------------

const exoticLeaf = fc.constantFrom<unknown>(
  new Date(0),
  new Map([[1, { a: 1 }]]),
  new Uint8Array(3),
  new String('ab'),
  Object.create(null),
  new (class Point {
    x = { y: 1 };
  })(),
  () => 1,
);

const { value } = fc.letrec<{ value: unknown; array: unknown[]; object: Record<string, unknown>; chain: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'medium', maxDepth: 12 },
    { weight: 3, arbitrary: fc.oneof(fc.jsonValue({ maxDepth: 3 }), exoticLeaf) },
    { weight: 3, arbitrary: tie('array') },
    { weight: 3, arbitrary: tie('object') },
    { weight: 1, arbitrary: tie('chain') },
  ),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fc.string({ maxLength: 3 }), tie('value'), { maxKeys: 4 }),
  /** A narrow, deep branch: nesting well past the protocol's 32. */
  chain: fc.tuple(fc.integer({ min: 1, max: 60 }), tie('value'), fc.boolean()).map(([levels, inner, arrays]) => {
    let node = inner;
    for (let i = 0; i < levels; i++) node = arrays ? [node] : { n: node };
    return node;
  }),
}));

const cap = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: -2, max: 70 }),
  fc.constantFrom(0, 0.5, 2.5, 31.9, 32, NaN, Infinity, -Infinity, 255, 256, 256.5, 257, 1000, Number.MAX_SAFE_INTEGER),
  fc.double(),
);

// ---- Differential properties -------------------------------------------------------------

test('jsonDepth gives what it gave, for any value and any cap', (t) => {
  fc.assert(
    fc.property(value, cap, (v, c) => {
      assert.equal(jsonDepth(v, c), legacyJsonDepth(v, c));
    }),
    { numRuns: 5_000 },
  );
  t.pass();
});

test('jsonDepth meets getters in the same order as before, early exit included', (t) => {
  fc.assert(
    fc.property(value, fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constantFrom(undefined, 300)), (v, c) => {
      const log: string[] = [];
      const spied = spy(v, log, 'v');
      const legacy = legacyJsonDepth(spied, c);
      const legacyLog = log.splice(0);
      assert.equal(jsonDepth(spied, c), legacy);
      assert.deepEqual(log, legacyLog);
    }),
    { numRuns: 2_000 },
  );
  t.pass();
});

/** A copy of `v` whose object members are getters that log their path when read. */
function spy(v: unknown, log: string[], path: string): unknown {
  if (v === null || typeof v !== 'object' || !(Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype)) return v;
  if (Array.isArray(v)) return v.map((item, i) => spy(item, log, `${path}[${i}]`));
  const copy = {};
  for (const [k, item] of Object.entries(v)) {
    const inner = spy(item, log, `${path}.${k}`);
    Object.defineProperty(copy, k, {
      enumerable: true,
      get: () => {
        log.push(`${path}.${k}`);
        return inner;
      },
    });
  }
  return copy;
}

// ---- Unit cases --------------------------------------------------------------------------

test('scalars are 0 deep, empty containers 1, whatever the cap', (t) => {
  for (const c of [undefined, -1, 0, 32]) {
    for (const scalar of [null, 0, 'x', true, undefined]) t.is(jsonDepth(scalar, c), 0);
  }
  t.is(jsonDepth({}), 1);
  t.is(jsonDepth([]), 1);
  t.is(jsonDepth({ a: [1, { b: [] }], c: 'x' }), 4);
  t.is(jsonDepth({ a: [1, { b: [] }], c: 'x' }, 2), 3); // past the cap: the first depth past it
  t.is(jsonDepth({ a: [1, { b: [] }], c: 'x' }, 2.5), 3);
  t.is(jsonDepth({ a: [1, { b: [] }], c: 'x' }, -5), 1);
  t.is(jsonDepth({ a: [1, { b: [] }], c: 'x' }, NaN), 4); // NaN compares false: no cap at all
});

test('100 000 levels: no stack overflow with the protocol cap, a large cap or none', (t) => {
  for (const arrays of [true, false]) {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = arrays ? [deep] : { a: deep };
    t.is(jsonDepth(deep), 100_000);
    t.is(jsonDepth(deep, DEFAULT_LIMITS.maxDepth), DEFAULT_LIMITS.maxDepth + 1);
    for (const c of [255, 256, 257, 1000, 99_999, 100_000]) t.is(jsonDepth(deep, c), Math.min(c + 1, 100_000), `cap ${c}`);
    t.is(legacyJsonDepth(deep, 1000), 1001);
  }
});

test('a cycle counts as deep as the cap allows, as before', (t) => {
  const cyclic: Record<string, unknown> = { a: [1] };
  (cyclic.a as unknown[]).push(cyclic);
  for (const c of [0, 1, 32, 256, 300]) {
    t.is(jsonDepth(cyclic, c), c + 1);
    t.is(legacyJsonDepth(cyclic, c), c + 1);
  }
});

test('every object is a level; its children are its own enumerable values', (t) => {
  const proto = { inherited: { deep: { deeper: {} } } };
  const value = Object.assign(Object.create(proto) as object, { own: 1 });
  Object.defineProperty(value, 'hidden', { value: { x: { y: {} } }, enumerable: false });
  const cases: unknown[] = [
    value,
    new Date(0),
    new Map([[1, { a: {} }]]),
    new String('ab'),
    new Uint8Array(2),
    [{ a: new Date(0) }],
    { [Symbol('s')]: { a: {} } },
  ];
  for (const v of cases) {
    t.is(jsonDepth(v), legacyJsonDepth(v));
    t.is(jsonDepth(v, 32), legacyJsonDepth(v, 32));
  }
  t.is(jsonDepth(value), 1);
  t.is(jsonDepth([{ a: new Date(0) }]), 3);
});
