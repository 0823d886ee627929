import test from 'ava';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { canonicalText } from '../../../src/domain/protocol/canonical.js';
import { canonicalProblem } from '../../../src/domain/protocol/canonical-problems.js';

test('names the member that has no canonical form, and why', (t) => {
  const cases: Array<[unknown, string, RegExp]> = [
    [JSON.parse('{"a": {"v": 1e400}}'), 'x.a.v', /beyond the range of an IEEE 754 double/],
    [{ a: [1, -Infinity] }, 'x.a[1]', /beyond the range/],
    [{ n: NaN }, 'x.n', /NaN/],
    [{ s: 'ok\ud800' }, 'x.s', /lone surrogate/],
    [{ s: '\udc00' }, 'x.s', /lone surrogate/],
    [{ 'two words': 10n }, 'x["two words"]', /BigInt/],
    [{ ['\ud800']: 1 }, 'x', /member name with a lone surrogate \("\\ud800"\)/],
  ];
  for (const [value, path, problem] of cases) {
    const found = canonicalProblem(value, 'x');
    t.is(found?.path, path);
    t.regex(found?.problem ?? '', problem);
    t.is(canonicalText(value), null, path);
  }
  const cycle: Record<string, unknown> = { a: 1 };
  cycle.self = cycle;
  t.deepEqual(canonicalProblem(cycle, 'x'), { path: 'x.self', problem: 'refers back to an enclosing value (a cycle), which JSON cannot represent' });
});

test('goes in canonical order and skips what canonical JSON leaves out', (t) => {
  // "b" sorts before "c": the first problem in canonical order is named, not the first written.
  t.is(canonicalProblem({ c: Infinity, b: '\ud800' }, 'x')?.path, 'x.b');
  // Members holding undefined are left out, and a pair is not a lone surrogate.
  t.is(canonicalProblem({ gone: undefined, ok: '\ud83e\udd16', ['\ud800gone']: undefined }, 'x'), null);
  // What is not JSON is named, whatever a JSON serializer would make of it.
  t.deepEqual(canonicalProblem({ f: () => Infinity }, 'x'), { path: 'x.f', problem: 'is a function, which JSON cannot represent' });
  t.deepEqual(canonicalProblem({ at: [new Date(0)] }, 'x'), {
    path: 'x.at[0]',
    problem: 'is an object that is not a plain one (a Date, a Map, an instance of a class), which JSON cannot represent',
  });
  // eslint-disable-next-line no-sparse-arrays
  t.deepEqual(canonicalProblem([1, , 3], 'x'), { path: 'x[1]', problem: 'is a hole in an array, which JSON cannot represent' });
  // The same object twice, not nested, is no cycle.
  const shared = { v: 1 };
  t.is(canonicalProblem({ a: shared, b: [shared, shared] }, 'x'), null);
});

test('finds a problem exactly when canonical text has none', (t) => {
  const troubled = fc.oneof(
    fc.constantFrom(Infinity, -Infinity, NaN, '\ud800', 'a\udfff', '\ud83e\udd16'),
    fc.double(),
    fc.string({ unit: 'grapheme', maxLength: 4 }),
  );
  const value = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      troubled,
      fc.constant(null),
      fc.boolean(),
      fc.array(tie('node'), { maxLength: 4 }),
      fc.dictionary(fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom('\ud800', '__proto__')), tie('node'), { maxKeys: 4 }),
    ),
  })).node;
  let without = 0;
  fc.assert(
    fc.property(value, (v) => {
      const found = canonicalProblem(v, 'x');
      assert.equal(found === null, canonicalText(v) !== null);
      if (found) without++;
    }),
    { numRuns: 2000 },
  );
  t.true(without > 100, `${without} generated values had no canonical form`);
});
