import test from 'ava';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { bytesToHex, hexToBytes } from '../../../src/domain/protocol/encoding.js';
import { legacyBytesToHex, legacyHexToBytes } from './legacy-helpers.js';

/** The table-driven hex codec against the regex-and-parseInt one it replaced. */

const same = (text: string): void => {
  const expected = legacyHexToBytes(text);
  const actual = hexToBytes(text);
  if (expected === null || actual === null) {
    if (actual !== expected) assert.fail(`${JSON.stringify(text)}: ${actual === null ? 'null' : 'bytes'} instead of ${expected === null ? 'null' : 'bytes'}`);
    return;
  }
  assert.deepEqual(Array.from(actual), Array.from(expected), JSON.stringify(text));
};

/** Hex digits of both cases and near misses (letters past f, signs, spaces, non-ASCII whose low byte is a digit). */
const NEAR = ['g', 'G', 'x', ' ', '-', '+', '\n', '\u0000', '\u0130', '\u0141', '\u0161', 'ａ', '０', '😀'];
const soup = fc
  .array(fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...'0123456789abcdefABCDEF'.split('')) }, { weight: 1, arbitrary: fc.constantFrom(...NEAR) }), {
    maxLength: 40,
  })
  .map((chars) => chars.join(''));

test('bytes to hex and back, as before', (t) => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
      const text = bytesToHex(bytes);
      assert.equal(text, legacyBytesToHex(bytes));
      assert.deepEqual(hexToBytes(text), bytes);
      assert.deepEqual(hexToBytes(text.toUpperCase()), bytes);
    }),
    { numRuns: 5_000 },
  );
  t.pass();
});

test('any text of hex digits and near misses decodes (or fails) as before', (t) => {
  fc.assert(fc.property(soup, same), { numRuns: 20_000 });
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 12 }), same), { numRuns: 5_000 });
  t.pass();
});

test('every character pair: accepted exactly when both are hex digits', (t) => {
  let accepted = 0;
  for (let a = 0; a < 0x180; a++) {
    for (const b of [0x30, 0x39, 0x41, 0x46, 0x61, 0x66, 0x67, 0x2f, 0x3a, 0x40, 0x60, 0x130, 0x161]) {
      const text = String.fromCharCode(a, b);
      same(text);
      if (hexToBytes(text) !== null) accepted++;
    }
  }
  // 22 first characters (0-9, a-f, A-F) × 6 second ones.
  t.is(accepted, 22 * 6);
});

const CASES: Array<[string, string, number[] | null]> = [
  ['empty text: no bytes', '', []],
  ['one byte', '0f', [15]],
  ['upper case', 'FF00aB', [255, 0, 171]],
  ['odd length', 'abc', null],
  ['one character', 'a', null],
  ['a letter past f', '0g', null],
  ['a 0x prefix', '0x00', null],
  ['a space', '00 0', null],
  ['a trailing newline', '00\n', null],
  ['a full-width digit', '0０', null],
  ['a char whose low byte is a digit', '0\u0130', null],
];

for (const [what, text, expected] of CASES) {
  test(`hexToBytes: ${what}`, (t) => {
    t.deepEqual(legacyHexToBytes(text) === null ? null : Array.from(legacyHexToBytes(text)!), expected, 'the reference itself');
    const actual = hexToBytes(text);
    t.deepEqual(actual === null ? null : Array.from(actual), expected);
  });
}
