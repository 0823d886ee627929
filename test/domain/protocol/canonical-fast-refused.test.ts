import test from 'ava';
import { canonicalText } from '../../../src/domain/protocol/canonical.js';
import { canonicalProblem } from '../../../src/domain/protocol/canonical-problems.js';
import { legacyCanonicalText } from './legacy-helpers.js';
import { fn } from './canonical-arbitraries.js';
import { isJsonValue, oracle, kept } from './canonical-oracle.js';

// The hand-written RFC 8785 writer against the oracle (canonical-oracle.ts): what is not JSON, and the edges.

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
