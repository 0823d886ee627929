import test from 'ava';
import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { actoPayloadTexts, actoText, byCodePoint } from '../../../src/domain/protocol/acto-canonical.js';
import { canonicalText } from '../../../src/domain/protocol/canonical.js';
import { parseReceivedJson, type ReceivedJson, type ReceivedObject } from '../../../src/domain/protocol/received-json.js';
import { readJsonFixture } from '../../support/fixtures.js';

const read = (text: string): ReceivedJson => {
  const parsed = parseReceivedJson(text, 64);
  if (!isRight(parsed)) throw new Error(`not JSON: ${text}`);
  return parsed.right;
};
const acto = (text: string) => actoText(read(text), 'ryu')?.text ?? null;

interface OrjsonCases {
  readonly orjson: string;
  readonly cases: ReadonlyArray<{ readonly sent: string; readonly orjson: string }>;
}

test('every value of the orjson fixture is written exactly as orjson wrote it', (t) => {
  const { cases, orjson } = readJsonFixture<OrjsonCases>('acto/orjson-cases.json');
  t.true(cases.length > 5000);
  const differ = cases.filter((c) => acto(c.sent) !== c.orjson);
  t.deepEqual(differ.slice(0, 5), [], `${differ.length} of ${cases.length} differ from orjson ${orjson}`);
});

test('members are sorted by code point: above U+FFFF, where JCS (UTF-16 units) differs', (t) => {
  const text = '{"\\uff61": 2, "\\ud83d\\ude00": 1, "e\\u0301": 3.0, "z": {"\\ufb01": 1, "\\ud83d\\ude00": 2}}';
  t.is(acto(text), '{"e\u0301":3.0,"z":{"\ufb01":1,"\ud83d\ude00":2},"\uff61":2,"\ud83d\ude00":1}');
  t.is(canonicalText(JSON.parse(text)), '{"e\u0301":3,"z":{"\ud83d\ude00":2,"\ufb01":1},"\ud83d\ude00":1,"\uff61":2}');
});

test('byCodePoint is the order of code points, which is the order of UTF-8 bytes', (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme-composite' }), fc.string({ unit: 'grapheme-composite' }), (a, b) => {
      const byBytes = Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
      const points = (s: string) => Array.from(s, (c) => c.codePointAt(0)!);
      const [x, y] = [points(a), points(b)];
      let byPoints = Math.sign(x.length - y.length);
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        if (x[i] !== y[i]) {
          byPoints = Math.sign(x[i]! - y[i]!);
          break;
        }
      }
      return Math.sign(byCodePoint(a, b)) === byBytes && byBytes === byPoints;
    }),
    { numRuns: 5000 },
  );
  t.pass();
});

test('strings are escaped as in JCS; a lone surrogate, an int past 64 bits or an infinite float has no ACTO form', (t) => {
  t.is(acto('["\\u0000\\u001f\\b\\t\\n\\f\\r\\"\\\\\\/\\u007f\\u2028"]'), '["\\u0000\\u001f\\b\\t\\n\\f\\r\\"\\\\/\u007f\u2028"]');
  t.is(acto('["\\ud800"]'), null);
  t.is(acto('{"\\udc00": 1}'), null);
  t.is(acto('[18446744073709551616]'), null);
  t.is(acto('[1e400]'), null);
  t.is(acto('[18446744073709551615, -9223372036854775808]'), '[18446744073709551615,-9223372036854775808]');
});

test('the spelling matters only where a float is written with a positive exponent', (t) => {
  t.deepEqual(actoText(read('[1e+16, 2.5]'), 'plus'), { text: '[1e+16,2.5]', spellingMatters: true });
  t.deepEqual(actoText(read('[1e-16, 2.5, 10000000000000000]'), 'plus'), { text: '[1e-16,2.5,10000000000000000]', spellingMatters: false });
});

test('payload texts: payload_hash left out, telemetry written once and reused', (t) => {
  const payload = read('{"payload_hash": "x", "telemetry_normalized": {"events": [], "meta": {"g": 1.0}}, "b": 2.50, "a": 1}') as ReceivedObject;
  t.deepEqual(actoPayloadTexts(payload, 'ryu'), {
    telemetry: '{"events":[],"meta":{"g":1.0}}',
    payload: '{"a":1,"b":2.5,"telemetry_normalized":{"events":[],"meta":{"g":1.0}}}',
    spellingMatters: false,
  });
  t.is(actoPayloadTexts(read('{"a": 1}') as ReceivedObject, 'ryu'), null, 'no telemetry_normalized, nothing to hash');
});

test('the ACTO text of any JSON value parses back to the value JSON.parse gives for the text it was made from', (t) => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
      const sent = JSON.stringify(value);
      const written = acto(sent);
      // An integer of 19 digits or more may be past orjson's 64 bits: then there is no ACTO form.
      if (written === null) return /(?<![.\d])-?\d{19,}(?![.\deE])/.test(sent);
      // JCS, which sorts members, compares the two values whatever their member order.
      return canonicalText(JSON.parse(written)) === canonicalText(JSON.parse(sent));
    }),
    { numRuns: 1000 },
  );
  t.pass();
});
