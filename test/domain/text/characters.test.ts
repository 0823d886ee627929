import test from 'ava';
import fc from 'fast-check';
import { characterCount, hasCharacters } from '../../../src/domain/text/characters.js';

test('characters are code points: an emoji is one, a lone surrogate is one', (t) => {
  t.is(characterCount(''), 0);
  t.is(characterCount('abc'), 3);
  t.is(characterCount('🤖'), 1);
  t.is(characterCount('a🤖b'), 3);
  t.is(characterCount('\ud800'), 1);
  t.is(characterCount('\udc00\ud800'), 2);
  t.is(characterCount('\ud83e\ud83e\udd16'), 2);
  t.is(characterCount('e\u0301'), 2); // a combining mark is a character of its own
});

test('characterCount is the length of the string as code points, for any string', (t) => {
  fc.assert(
    fc.property(
      fc.string({ unit: fc.oneof(fc.constant('🤖'), fc.constant('\ud800'), fc.constant('\udc00'), fc.string({ minLength: 1, maxLength: 1 })) }),
      (s) => characterCount(s) === [...s].length,
    ),
  );
  t.pass();
});

test('hasCharacters agrees with the count at every bound', (t) => {
  fc.assert(
    fc.property(
      fc.string({ unit: fc.oneof(fc.constant('🤖'), fc.string({ minLength: 1, maxLength: 1 })), maxLength: 40 }),
      fc.nat(20),
      fc.nat(20),
      (s, a, b) => {
        const [min, max] = a <= b ? [a, b] : [b, a];
        const n = [...s].length;
        return hasCharacters(s, min, max) === (n >= min && n <= max);
      },
    ),
  );
  t.true(hasCharacters('🤖'.repeat(100), 1, 100));
  t.false(hasCharacters('🤖'.repeat(101), 1, 100));
});
