import test from 'ava';
import { API_KEY_PREFIX, crc32, displayPrefix, formatApiKey, isWellFormedApiKey, looksLikeApiKey } from '../../../src/domain/identity/api-key.js';
import { BASE58_ALPHABET } from '../../../src/domain/identity/base58.js';

const secret = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i * 13 + n) & 0xff);

test('CRC-32 matches the IEEE check value', (t) => {
  t.is(crc32('123456789'), 0xcbf43926);
  t.is(crc32(''), 0);
});

test('a formatted key has the prefix, a base58 body and passes its own check', (t) => {
  for (let n = 0; n < 50; n++) {
    const key = formatApiKey(secret(n));
    t.true(key.startsWith(API_KEY_PREFIX));
    t.regex(key.slice(API_KEY_PREFIX.length), /^[1-9A-HJ-NP-Za-km-z]+$/);
    t.true(isWellFormedApiKey(key), key);
    t.true(looksLikeApiKey(key));
  }
});

test('a secret of all zero bytes still round-trips (leading zeros are kept)', (t) => {
  const key = formatApiKey(new Uint8Array(32));
  t.true(isWellFormedApiKey(key));
});

test('every single-character substitution is caught by the checksum', (t) => {
  const key = formatApiKey(secret(7));
  let caught = 0;
  let tried = 0;
  for (let i = API_KEY_PREFIX.length; i < key.length; i++) {
    for (const ch of BASE58_ALPHABET) {
      if (ch === key[i]) continue;
      tried++;
      if (!isWellFormedApiKey(key.slice(0, i) + ch + key.slice(i + 1))) caught++;
    }
  }
  t.is(caught, tried);
});

test('transpositions, truncations, extensions and other prefixes are refused', (t) => {
  const key = formatApiKey(secret(3));
  const swapped = (i: number) => key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2);
  for (let i = API_KEY_PREFIX.length; i < key.length - 1; i++) {
    if (key[i] !== key[i + 1]) t.false(isWellFormedApiKey(swapped(i)), `swap at ${i}`);
  }
  t.false(isWellFormedApiKey(key.slice(0, -1)));
  t.false(isWellFormedApiKey(key.slice(1)));
  t.false(isWellFormedApiKey(key + '1'));
  t.false(isWellFormedApiKey(key.replace('pr_live_', 'pr_test_')));
  t.false(isWellFormedApiKey(key.toLowerCase()));
  t.false(isWellFormedApiKey(''));
  t.false(isWellFormedApiKey('pr_live_'));
});

test('the display prefix identifies a key without revealing enough to use it', (t) => {
  const key = formatApiKey(secret(1));
  t.is(displayPrefix(key), key.slice(0, 16));
  t.true(key.length - displayPrefix(key).length >= 40);
});

test('a secret of the wrong length is a programming error', (t) => {
  t.throws(() => formatApiKey(new Uint8Array(16)), { instanceOf: RangeError });
});
