import test from 'ava';
import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { NumberText, parseReceivedJson, parsedValueOf, receivedMemberText, type ReceivedJson } from '../../../src/domain/protocol/received-json.js';

const DEPTH = 64;

/** What JSON.parse makes of `text`, or 'refused'. */
function jsonParse(text: string): unknown {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return 'refused';
  }
}

/** What parseReceivedJson makes of it, as the value JSON.parse would give, or 'refused'. */
function received(text: string): unknown {
  const read = parseReceivedJson(text, DEPTH);
  return isRight(read) ? { value: parsedValueOf(read.right) } : 'refused';
}

/** Deep equality that tells -0 from 0, as Object.is does. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' || typeof b === 'number') return Object.is(a, b);
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (typeof a === 'object' && a !== null) {
    if (typeof b !== 'object' || b === null || Array.isArray(b)) return false;
    const keys = Object.keys(a);
    const others = Object.keys(b);
    return keys.length === others.length && keys.every((k, i) => k === others[i] && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

const REFUSED = [
  '',
  ' ',
  '\ufeff{}',
  '{} x',
  '[1,]',
  '{"a":1,}',
  '{"a" 1}',
  '{a:1}',
  "{'a':1}",
  '[1 2]',
  '01',
  '-01',
  '1.',
  '.5',
  '+1',
  '1e',
  '1e+',
  '-',
  'NaN',
  'Infinity',
  '-Infinity',
  'tru',
  'nul',
  'True',
  '"\\x"',
  '"\\u12"',
  '"\\u12G4"',
  '"abc',
  '"a\u0001b"',
  '"\t"',
  '[',
  ']',
  '{',
  '{"a"',
  '{"a":',
  '\u00a0[]',
  '[1]\u2028',
  '1 2',
  '"\\',
  '{"a":1}}',
  '[[]]]',
];

for (const text of REFUSED) {
  test(`refused, as JSON.parse refuses it: ${JSON.stringify(text)}`, (t) => {
    t.is(jsonParse(text), 'refused');
    t.is(received(text), 'refused');
  });
}

const ACCEPTED = [
  '0',
  '-0',
  '-0.0',
  '1e400',
  '-1e-400',
  '12.5e-3',
  '1E+2',
  '"\\ud800"',
  '"\ud800"',
  '"\\ud83d\\ude00"',
  '" \\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9"',
  ' \t\r\n[ 1 , { } , [ ] ] \n',
  '{"a":1,"a":2,"b":3}',
  '{"b":1,"a":2,"b":3}',
  '{"__proto__":{"x":1}}',
  '{"":0}',
  'true',
  'null',
  '"\u2028"',
];

for (const text of ACCEPTED) {
  test(`read as JSON.parse reads it: ${JSON.stringify(text)}`, (t) => {
    const expected = jsonParse(text) as { value: unknown };
    const got = received(text) as { value: unknown };
    t.not(got as unknown, 'refused');
    t.true(same(got.value, expected.value), `${JSON.stringify(got)} vs ${JSON.stringify(expected)}`);
  });
}

test('numbers keep the text they were sent in', (t) => {
  const read = parseReceivedJson('{"a":[56.0,56,1e-07,1e+16,9007199254740993,-0.0]}', DEPTH);
  if (!isRight(read)) return t.fail();
  const numbers = (read.right as Map<string, ReceivedJson>).get('a') as NumberText[];
  t.deepEqual(
    numbers.map((n) => n.text),
    ['56.0', '56', '1e-07', '1e+16', '9007199254740993', '-0.0'],
  );
  t.true(numbers.every((n) => n instanceof NumberText));
});

test('a name given twice keeps its first place and its last value, and __proto__ is a member', (t) => {
  const read = parseReceivedJson('{"b":1,"a":2,"b":3,"__proto__":4}', DEPTH);
  if (!isRight(read)) return t.fail();
  const map = read.right as Map<string, ReceivedJson>;
  t.deepEqual([...map.keys()], ['b', 'a', '__proto__']);
  t.is((map.get('b') as NumberText).text, '3');
  const value = parsedValueOf(map) as Record<string, unknown>;
  t.true(Object.prototype.hasOwnProperty.call(value, '__proto__'));
  t.is(Object.getPrototypeOf(value), Object.prototype);
});

test('nesting is refused past the limit, and only there; deep text does not exhaust the stack', (t) => {
  const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
  t.true(isRight(parseReceivedJson(nested(32), 32)));
  const deeper = parseReceivedJson(nested(33), 32);
  t.false(isRight(deeper));
  if (!isRight(deeper)) t.true(deeper.left.tooDeep);
  t.true(isRight(parseReceivedJson('{"a":{"b":{}}}', 3)));
  t.false(isRight(parseReceivedJson('{"a":{"b":{}}}', 2)));
  // Iterative: a hundred thousand levels are read (or refused) without recursion.
  t.true(isRight(parseReceivedJson(nested(100_000), 200_000)));
  const tooDeep = parseReceivedJson(nested(100_000), 10);
  t.false(isRight(tooDeep));
  if (!isRight(tooDeep)) t.is(tooDeep.left.position, 10);
});

test('any JSON value, written by JSON.stringify with or without indentation, reads back as JSON.parse reads it', (t) => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(undefined, 1, '\t'), (value, indent) => {
      const text = JSON.stringify(value, null, indent);
      return same((received(text) as { value: unknown }).value, JSON.parse(text));
    }),
    { numRuns: 500 },
  );
  t.pass();
});

/** Texts made of JSON's tokens and some that are not, so that most are near misses. */
const tokenSoup = fc
  .array(
    fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"a"',
      '"',
      '\\',
      '1',
      '-',
      '0',
      '.',
      'e',
      '+',
      'E',
      'true',
      'null',
      'nul',
      ' ',
      '\n',
      '\u0000',
      '\ud800',
      'x',
      '\\u00e9',
      '\\n',
    ),
    { maxLength: 14 },
  )
  .map((tokens) => tokens.join(''));

test('any text is refused exactly when JSON.parse refuses it, and otherwise read as it reads it', (t) => {
  fc.assert(
    fc.property(fc.oneof(tokenSoup, fc.string({ unit: 'binary', maxLength: 12 })), (text) => {
      const expected = jsonParse(text);
      const got = received(text);
      return expected === 'refused' ? got === 'refused' : got !== 'refused' && same((got as { value: unknown }).value, (expected as { value: unknown }).value);
    }),
    { numRuns: 20_000 },
  );
  t.pass();
});

test("a member's exact text: the last one given, however its name is spelled, and none unless the text is an object", (t) => {
  const member = (text: string) => receivedMemberText(text, 'envelope', DEPTH);
  t.is(member('{"envelope": {"a": 85.0, "b": [1e+16, "\\u00e9"]}}'), '{"a": 85.0, "b": [1e+16, "\\u00e9"]}');
  t.is(member(' { "x" : 1 , "envelope" : [ 1.0 ] , "envelope":"z" } '), '"z"');
  t.is(member('{"\\u0065nvelope": 56.0}'), '56.0');
  t.is(member('{"a": {"envelope": 1}}'), undefined);
  t.is(member('[{"envelope": 1}]'), undefined);
  t.is(member('{"envelope": 1'), undefined);
  t.is(receivedMemberText('{"envelope": [[[]]]}', 'envelope', 3), undefined, 'deeper than the limit');
});

test('for any object, the member text parses to the member JSON.parse gives', (t) => {
  const body = fc.tuple(
    fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
    fc.jsonValue({ maxDepth: 4 }),
    fc.nat(4),
    fc.constantFrom(undefined, 2),
  );
  fc.assert(
    fc.property(body, ([others, envelope, at, indent]) => {
      const entries = Object.entries(others).filter(([name]) => name !== 'envelope');
      entries.splice(Math.min(at, entries.length), 0, ['envelope', envelope]);
      const text = JSON.stringify(Object.fromEntries(entries), null, indent);
      const slice = receivedMemberText(text, 'envelope', DEPTH);
      return slice !== undefined && text.includes(slice) && same(JSON.parse(slice), (JSON.parse(text) as { envelope: unknown }).envelope);
    }),
    { numRuns: 500 },
  );
  t.pass();
});
