import test from 'ava';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { canonicalText } from '../../../src/domain/protocol/canonical.js';
import { legacyCanonicalText } from './legacy-helpers.js';
import { kept } from './canonical-oracle.js';

// The hand-written RFC 8785 writer against the oracle (canonical-oracle.ts): numbers, strings, member names.

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
