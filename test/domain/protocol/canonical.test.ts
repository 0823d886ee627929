import test from 'ava';
import { CanonicalJson, canonicalText } from '../../../src/domain/protocol/canonical.js';
import { listFixtures, readFixture } from '../../support/fixtures.js';

for (const file of listFixtures('jcs/input')) {
  test(`RFC 8785 vector ${file}`, (t) => {
    const expected = readFixture(`jcs/output/${file}`).replace(/\n$/, '');
    t.is(canonicalText(JSON.parse(readFixture(`jcs/input/${file}`))), expected);
  });
}

test('a lone surrogate has no canonical form', (t) => {
  t.is(canonicalText({ a: '\ud800' }), null);
  t.is(canonicalText({ a: '\ud83d\ude00' }), '{"a":"😀"}');
});

test('payload bytes leave out payload_hash and hold the telemetry as a span', (t) => {
  const canonical = new CanonicalJson();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  const payload = { b: 1, payload_hash: 'x', telemetry_normalized: { events: [] }, a: [1.0, 1e-7] };
  const written = canonical.payload(payload)!;
  t.is(text(written.bytes), '{"a":[1,1e-7],"b":1,"telemetry_normalized":{"events":[]}}');
  t.is(text(written.telemetry), '{"events":[]}');
  t.is(canonical.payload({ z: '\udc00', telemetry_normalized: {} }), null);
  t.is(canonical.payload({ z: 1 }), null, 'no telemetry_normalized');
});

test('member names sort by UTF-16 code units, not code points', (t) => {
  // U+FB01 (one unit, 0xFB01) sorts after U+1F600 (surrogates 0xD83D…), unlike by code point.
  t.is(canonicalText({ '\ufb01': 1, '\ud83d\ude00': 2 }), '{"😀":2,"ﬁ":1}');
});
