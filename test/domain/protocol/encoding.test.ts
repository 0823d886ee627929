import test from 'ava';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { decodeBase64Strict, encodeBase64 } from '../../../src/domain/protocol/encoding.js';
import { legacyDecodeBase64Strict } from './legacy-helpers.js';

/** The table-driven base64 decoder against the regex-and-re-encode one it replaced. */

const same = (text: string): void => {
  const expected = legacyDecodeBase64Strict(text);
  const actual = decodeBase64Strict(text);
  if (expected === null || actual === null) {
    if (actual !== expected) assert.fail(`${JSON.stringify(text)}: ${actual === null ? 'null' : 'bytes'} instead of ${expected === null ? 'null' : 'bytes'}`);
    return;
  }
  assert.ok(actual instanceof Uint8Array);
  assert.deepEqual(Array.from(actual), Array.from(expected), JSON.stringify(text));
};

// ---- Arbitraries -------------------------------------------------------------------------

const bytes = fc.uint8Array({ maxLength: 80 });
const encoded = bytes.map((b) => encodeBase64(b));

/** Characters that are base64 (and `=`), or nearly so. */
const NEAR = ['=', '-', '_', ' ', '\n', '\t', '.', ',', '\u0000', 'é', '\u00c1', 'Ａ', '😀', '\u0100', '\u0141', '\u017f', '\u012b'];

/** One edit of valid base64: a character replaced, removed, added, or a trailing `=` changed. */
const edited = fc
  .tuple(
    encoded,
    fc.constantFrom('replace', 'remove', 'insert', 'unpad', 'pad', 'swap-alphabet', 'flip-last'),
    fc.nat(),
    fc.constantFrom(...NEAR, 'A', 'z', '+', '/', '0'),
  )
  .map(([text, how, at, c]) => {
    const i = at % (text.length + 1);
    switch (how) {
      case 'replace':
        return text.slice(0, i) + c + text.slice(i + 1);
      case 'remove':
        return text.slice(0, i) + text.slice(i + 1);
      case 'insert':
        return text.slice(0, i) + c + text.slice(i);
      case 'unpad':
        return text.replace(/=+$/, '');
      case 'pad':
        return `${text}=`;
      case 'swap-alphabet':
        return text.replace(/\+/g, '-').replace(/\//g, '_');
      default: {
        // Change the last data character: sets or clears the unused trailing bits.
        const last = text.replace(/=+$/, '').length - 1;
        if (last < 0) return text;
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
        return text.slice(0, last) + alphabet[(alphabet.indexOf(text[last]!) + 1 + (at % 63)) % 64]! + text.slice(last + 1);
      }
    }
  });

/** Any text from the base64 alphabet, `=` and near misses, of any length. */
const soup = fc
  .array(
    fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...'AQgwz09+/'.split('')) },
      { weight: 2, arbitrary: fc.constant('=') },
      { weight: 1, arbitrary: fc.constantFrom(...NEAR) },
    ),
    {
      maxLength: 16,
    },
  )
  .map((chars) => chars.join(''));

// ---- Differential properties -------------------------------------------------------------

test('valid base64 decodes to the bytes it encodes, as before', (t) => {
  fc.assert(
    fc.property(bytes, (b) => {
      const text = encodeBase64(b);
      same(text);
      assert.deepEqual(decodeBase64Strict(text), b);
    }),
    { numRuns: 5_000 },
  );
  t.pass();
});

test('valid base64 with one edit decodes (or fails) as before', (t) => {
  fc.assert(fc.property(edited, same), { numRuns: 20_000 });
  t.pass();
});

test('any text of base64 characters and near misses decodes (or fails) as before', (t) => {
  fc.assert(fc.property(soup, same), { numRuns: 20_000 });
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 12 }), same), { numRuns: 5_000 });
  t.pass();
});

test('every last quartet xx== and xxx= over the whole alphabet is accepted exactly when canonical', (t) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let accepted = 0;
  for (const a of alphabet) {
    for (const b of alphabet) {
      same(`AAAA${a}${b}==`);
      if (decodeBase64Strict(`${a}${b}==`) !== null) accepted++;
      for (const c of 'AEIMQUYcgkosw048BDz/') same(`${a}${b}${c}=`);
    }
  }
  t.is(accepted, 256); // one text per byte value
});

// ---- Unit cases --------------------------------------------------------------------------

const CASES: Array<[string, string, number[] | null]> = [
  ['empty text: no bytes', '', []],
  ['one byte', 'AA==', [0]],
  ['two bytes', 'AAE=', [0, 1]],
  ['three bytes', 'AAEC', [0, 1, 2]],
  ['the whole alphabet', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', null],
  ['+ and /', '+/+/', [0xfb, 0xff, 0xbf]],
  ['non-canonical trailing bits (xx==)', 'AB==', null],
  ['non-canonical trailing bits (xxx=)', 'AAB=', null],
  ['canonical trailing bits (xx==)', 'AQ==', [1]],
  ['canonical trailing bits (xxx=)', 'AAE=', [0, 1]],
  ['missing padding (2 left)', 'AA', null],
  ['missing padding (3 left)', 'AAE', null],
  ['too much padding', 'AA===', null],
  ['padding only', '====', null],
  ['three pads', 'A===', null],
  ['padding in the middle', 'AA==AAAA', null],
  ['a pad between data', 'A=AA', null],
  ['a pad after full quartets', 'AAAA=', null],
  ['url-safe -', 'AA-A', null],
  ['url-safe _', 'AA_A', null],
  ['a space', 'AA A', null],
  ['a trailing newline', 'AAAA\n', null],
  ['a line break inside', 'AAAA\nAAAA', null],
  ['a non-ASCII letter', 'AAÁA', null],
  ['a full-width letter', 'AAＡA', null],
  ['a char whose low byte is a base64 letter', 'AA\u0141A', null],
  ['a NUL', 'AA\u0000A', null],
  ['length 1', 'A', null],
  ['length 5', 'AAAAA', null],
];

for (const [what, text, expected] of CASES) {
  test(`decodeBase64Strict: ${what}`, (t) => {
    const legacy = legacyDecodeBase64Strict(text);
    const actual = decodeBase64Strict(text);
    if (expected !== null || what === 'the whole alphabet') {
      t.not(actual, null);
      if (expected !== null) t.deepEqual(Array.from(actual!), expected);
      t.deepEqual(Array.from(actual!), Array.from(legacy!));
    } else {
      t.is(legacy, null, 'the reference itself');
      t.is(actual, null);
    }
  });
}

test('each call returns a fresh array of its own', (t) => {
  const a = decodeBase64Strict('AAEC')!;
  const b = decodeBase64Strict('AAEC')!;
  t.not(a, b);
  t.not(a.buffer, b.buffer);
  t.is(a.byteOffset, 0);
  t.is(a.buffer.byteLength, 3);
});

test('32- and 64-byte keys and signatures round-trip', (t) => {
  const key = Uint8Array.from({ length: 32 }, (_, i) => (i * 37) & 0xff);
  const signature = Uint8Array.from({ length: 64 }, (_, i) => 255 - i);
  t.deepEqual(decodeBase64Strict(encodeBase64(key)), key);
  t.deepEqual(decodeBase64Strict(encodeBase64(signature)), signature);
  t.is(encodeBase64(key).length, 44);
  t.is(encodeBase64(signature).length, 88);
});
