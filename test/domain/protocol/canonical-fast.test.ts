import test from 'ava';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { legacyCanonicalPayloadText } from './legacy-helpers.js';
import { name, telemetry, value } from './canonical-arbitraries.js';
import { isJsonValue, jsonCopy, oracle, same, kept } from './canonical-oracle.js';

// The hand-written RFC 8785 writer against the oracle (canonical-oracle.ts), on values drawn at random.

/** Checks `value` both ways; counts the values that were JSON and those that were not. */
function differential(counts: { json: number; other: number }) {
  return (value: unknown): void => {
    const json = isJsonValue(value);
    assert.equal(kept.text(value), json ? oracle(value) : null);
    if (json) counts.json++;
    else counts.other++;
  };
}

test('canonical text is what canonicalize writes for any JSON value, and null for any other value', (t) => {
  const counts = { json: 0, other: 0 };
  fc.assert(fc.property(value, differential(counts)), { numRuns: 4000 });
  // Both kinds were exercised, not one of them only.
  t.true(counts.json > 1000 && counts.other > 500, JSON.stringify(counts));
});

test('canonical text is what canonicalize writes for telemetry-like objects', (t) => {
  const counts = { json: 0, other: 0 };
  fc.assert(fc.property(telemetry, differential(counts)), { numRuns: 1000 });
  t.true(counts.json > 200, JSON.stringify(counts));
});

test('canonical text is what canonicalize writes for any JSON text parsed', (t) => {
  fc.assert(
    fc.property(fc.json({ maxDepth: 4 }), (json) => {
      const parsed: unknown = JSON.parse(json);
      same(parsed);
      // Canonical text is JSON: it parses back to the same canonical text.
      const text = kept.text(parsed);
      if (text !== null) assert.equal(kept.text(JSON.parse(text)), text);
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

const utf8Text = (bytes: Uint8Array): string => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);

test('payload bytes are canonicalize’s payload text without payload_hash, the telemetry its span; null exactly where the payload is not JSON', (t) => {
  const payload = fc
    .tuple(fc.array(fc.tuple(fc.oneof(name, fc.constantFrom('payload_hash', 'telemetry_normalized', 'meta')), value), { maxLength: 6 }), telemetry)
    .map(([members, tel]) => {
      const object: Record<string, unknown> = { telemetry_normalized: tel };
      for (const [k, v] of members) Object.defineProperty(object, k, { value: v, enumerable: true, writable: true, configurable: true });
      return object;
    });
  let compared = 0;
  let nulls = 0;
  fc.assert(
    fc.property(payload, (p) => {
      const { payload_hash: _ignored, ...hashed } = p;
      const json = isJsonValue(hashed) && p.telemetry_normalized !== undefined;
      const written = kept.payload(p);
      if (!json) {
        nulls++;
        assert.equal(written, null);
        return;
      }
      assert.notEqual(written, null);
      // The telemetry bytes are a view inside the payload's: read them before another call.
      assert.equal(utf8Text(written!.telemetry), oracle(p.telemetry_normalized));
      assert.equal(utf8Text(written!.bytes), legacyCanonicalPayloadText(jsonCopy(hashed) as Record<string, unknown>));
      compared++;
    }),
    { numRuns: 2000 },
  );
  t.true(compared > 100, `${compared} compared`);
  t.true(nulls > 10, `${nulls} null`);
});

test('payload bytes: none without telemetry_normalized; a call made while another runs gets its own right answer', (t) => {
  t.is(kept.payload({ version: '1' }), null);
  t.is(kept.payload({ telemetry_normalized: undefined, a: 1 }), null);
  // A getter (an accessor member of a plain object) runs while the outer call writes.
  const p = {
    telemetry_normalized: {
      events: [],
      get inner() {
        return utf8Text(kept.payload({ telemetry_normalized: { z: 1 }, b: 'é' })!.bytes);
      },
    },
  };
  t.is(utf8Text(kept.payload(p)!.bytes), '{"telemetry_normalized":{"events":[],"inner":"{\\"b\\":\\"é\\",\\"telemetry_normalized\\":{\\"z\\":1}}"}}');
  // And the writer is sound afterwards.
  t.is(utf8Text(kept.payload({ b: 'é', telemetry_normalized: { a: [1.5] } })!.telemetry), '{"a":[1.5]}');
});
