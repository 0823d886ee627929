import test from 'ava';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { canonicalText } from '../../../src/domain/protocol/canonical.js';
import type { EnvelopeInput } from '../../../src/domain/protocol/create-envelope.js';
import { decodeBase64Strict, encodeBase64 } from '../../../src/domain/protocol/encoding.js';
import type { JsonObject, JsonValue } from '../../../src/domain/protocol/envelope.js';
import { failureCode, type ProofFailureTag } from '../../../src/domain/protocol/failures.js';
import { protocols } from '../../support/protocol.js';

const NUM_RUNS = 200;
const { 'node:crypto': node, tweetnacl, libsodium, 'libsodium, hashing texts': hashingTexts } = protocols;

// ---- Arbitraries -------------------------------------------------------------------------

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** RFC 3339 date-times in the forms devices send: any separator, fraction and offset. */
const rfc3339 = fc
  .record({
    year: fc.integer({ min: 1970, max: 2199 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 60 }),
    separator: fc.constantFrom('T', 't', ' '),
    fraction: fc.option(fc.stringMatching(/^\.\d{1,15}$/), { nil: '' }),
    offset: fc.oneof(
      fc.constantFrom('Z', 'z', '+00:00'),
      fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([s, h, m]) => `${s}${pad(h)}:${pad(m)}`),
    ),
  })
  .map((d) => `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}${d.separator}${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)}${d.fraction}${d.offset}`);

const text = fc.string({ unit: 'grapheme', maxLength: 16 });

// Unicode strings, floats, nested objects and arrays; depth 4 keeps envelopes far below 20.
const jsonObject: fc.Arbitrary<JsonObject> = fc.dictionary(text, fc.jsonValue({ maxDepth: 4, stringUnit: 'grapheme' }) as fc.Arbitrary<JsonValue>, {
  maxKeys: 6,
});

const event = fc.record({ ts: rfc3339, topic: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }), data: jsonObject });

const envelopeInput = (minEvents: number): fc.Arbitrary<EnvelopeInput> =>
  fc.record({
    taskId: text,
    robotId: fc.option(text, { nil: undefined }),
    runId: fc.option(text, { nil: undefined }),
    events: fc.array(event, { minLength: minEvents, maxLength: 5 }),
    meta: fc.option(jsonObject, { nil: undefined }),
    createdAt: rfc3339,
  });

const seed = fc.uint8Array({ minLength: 32, maxLength: 32 });

/** What a verifier receives: the envelope after a trip through JSON text. */
const overTheWire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

// ---- (a) whatever is signed verifies ---------------------------------------------------

test('any signed telemetry verifies with every Ed25519 adapter', (t) => {
  fc.assert(
    fc.property(envelopeInput(0), seed, (input, key) => {
      const envelope = node.create(input, key);
      for (const [protocol, received] of [
        [node, envelope],
        [node, overTheWire(envelope)],
        [tweetnacl, overTheWire(envelope)],
        [libsodium, overTheWire(envelope)],
        [hashingTexts, overTheWire(envelope)],
      ] as const) {
        const report = protocol.verify(received);
        assert.equal(report.reason, null);
        assert.equal(report.proof_id, envelope.payload.payload_hash);
      }
    }),
    { numRuns: NUM_RUNS },
  );
  t.pass();
});

// tweetnacl signs about 50× slower than node:crypto, hence fewer runs.
test('every Ed25519 adapter signs any input to the very same envelope', (t) => {
  fc.assert(
    fc.property(envelopeInput(0), seed, (input, key) => {
      // Ed25519 signatures are deterministic (RFC 8032), so the envelopes must be identical.
      const expected = node.create(input, key);
      assert.deepEqual(tweetnacl.create(input, key), expected);
      assert.deepEqual(libsodium.create(input, key), expected);
    }),
    { numRuns: NUM_RUNS / 4 },
  );
  t.pass();
});

// ---- (b) any single change to a signed envelope is caught, by the right check -------------

interface Wire {
  payload: {
    subject: { task_id: string };
    created_at: string;
    telemetry_normalized: { events: Array<{ ts: string; topic: string; data: JsonObject }> };
    telemetry_hash: string;
    payload_hash: string;
    meta?: JsonObject;
    [extra: string]: unknown;
  };
  signer_public_key_b64: string;
  signature_b64: string;
}

interface Choice {
  /** Picks an event, a leaf, a hex digit or a bit. */
  readonly pick: number;
  /** A valid date-time, different from the one it replaces (checked with fc.pre). */
  readonly otherTime: string;
  readonly otherSeed: Uint8Array;
}

// Own-property writes: a key named "__proto__" (JSON allows it) must change the data, not the prototype.
const put = (target: object, key: string | number, value: JsonValue): void => {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
};

/** Setters for every leaf (scalar or empty container) under `value`. */
function leaves(value: JsonValue, set: (v: JsonValue) => void, out: Array<[JsonValue, (v: JsonValue) => void]>): typeof out {
  const children = value !== null && typeof value === 'object' ? Object.entries(value) : [];
  if (children.length === 0) out.push([value, set]);
  for (const [key, child] of children) leaves(child, (v) => put(value as object, Array.isArray(value) ? Number(key) : key, v), out);
  return out;
}

/** A value whose canonical JSON differs from `v`'s (-x differs from x for any x ≠ 0). */
function changed(v: JsonValue): JsonValue {
  if (typeof v === 'string') return `${v}·`;
  if (typeof v === 'number') return v === 0 ? 1 : -v;
  if (typeof v === 'boolean') return !v;
  return v === null ? false : null;
}

const flipHex = (hex: string, at: number): string => {
  const i = at % hex.length;
  return hex.slice(0, i) + (hex[i] === '0' ? '1' : '0') + hex.slice(i + 1);
};

const flipBit = (b64: string, at: number): string => {
  const bytes = decodeBase64Strict(b64)!;
  const bit = at % (bytes.length * 8);
  bytes[bit >> 3]! ^= 1 << (bit & 7);
  return encodeBase64(bytes);
};

const eventOf = (w: Wire, c: Choice) => w.payload.telemetry_normalized.events[c.pick % w.payload.telemetry_normalized.events.length]!;

interface Mutation {
  readonly name: string;
  /** The failure: the first check in docs/protocol.md's order that the change breaks (its code is failureCode of this). */
  readonly expect: ProofFailureTag;
  apply(w: Wire, c: Choice): void;
}

const MUTATIONS: readonly Mutation[] = [
  {
    name: 'a leaf of event data',
    expect: 'TelemetryHashMismatch',
    apply: (w, c) => {
      const data = eventOf(w, c).data;
      if (Object.keys(data).length === 0) return put(data, `new·${c.pick}`, c.pick);
      const found = leaves(data, () => undefined, []);
      const [value, set] = found[c.pick % found.length]!;
      set(changed(value));
    },
  },
  {
    name: 'an event ts',
    expect: 'TelemetryHashMismatch',
    apply: (w, c) => {
      const e = eventOf(w, c);
      fc.pre(e.ts !== c.otherTime);
      e.ts = c.otherTime;
    },
  },
  { name: 'an event topic', expect: 'TelemetryHashMismatch', apply: (w, c) => void (eventOf(w, c).topic += '·') },
  {
    name: 'an added event',
    expect: 'TelemetryHashMismatch',
    apply: (w, c) => void w.payload.telemetry_normalized.events.push({ ts: c.otherTime, topic: 'added', data: {} }),
  },
  {
    name: 'a removed event',
    expect: 'TelemetryHashMismatch',
    apply: (w, c) => void w.payload.telemetry_normalized.events.splice(c.pick % w.payload.telemetry_normalized.events.length, 1),
  },
  { name: 'subject.task_id', expect: 'PayloadHashMismatch', apply: (w) => void (w.payload.subject.task_id += '·') },
  {
    name: 'created_at',
    expect: 'PayloadHashMismatch',
    apply: (w, c) => {
      fc.pre(w.payload.created_at !== c.otherTime);
      w.payload.created_at = c.otherTime;
    },
  },
  {
    name: 'meta (removed, added or extended)',
    expect: 'PayloadHashMismatch',
    apply: (w, c) => {
      if (w.payload.meta !== undefined && c.pick % 2 === 0) delete w.payload.meta;
      else put((w.payload.meta ??= {}), `new·${c.pick}`, c.pick);
    },
  },
  // Unknown payload members are allowed, and signed: adding one must break payload_hash.
  { name: 'an added payload member', expect: 'PayloadHashMismatch', apply: (w) => void (w.payload.device_note = 'added later') },
  { name: 'telemetry_hash', expect: 'TelemetryHashMismatch', apply: (w, c) => void (w.payload.telemetry_hash = flipHex(w.payload.telemetry_hash, c.pick)) },
  { name: 'payload_hash', expect: 'PayloadHashMismatch', apply: (w, c) => void (w.payload.payload_hash = flipHex(w.payload.payload_hash, c.pick)) },
  { name: 'one bit of the signature', expect: 'SignatureInvalid', apply: (w, c) => void (w.signature_b64 = flipBit(w.signature_b64, c.pick)) },
  {
    name: 'one bit of the public key',
    expect: 'SignatureInvalid',
    apply: (w, c) => void (w.signer_public_key_b64 = flipBit(w.signer_public_key_b64, c.pick)),
  },
  {
    name: 'the public key, for another device',
    expect: 'SignatureInvalid',
    apply: (w, c) => void (w.signer_public_key_b64 = encodeBase64(node.publicKey(c.otherSeed))),
  },
  { name: 'the signature padding', expect: 'InvalidKeyEncoding', apply: (w) => void (w.signature_b64 = w.signature_b64.replace(/=+$/, '')) },
];

test('any single change to a signed envelope fails with the check it breaks', (t) => {
  const choice = fc.record({ pick: fc.nat(), otherTime: rfc3339, otherSeed: seed });
  const seen = new Set<string>();
  fc.assert(
    fc.property(envelopeInput(1), seed, fc.constantFrom(...MUTATIONS), choice, (input, key, mutation, c) => {
      fc.pre(!c.otherSeed.every((b, i) => b === key[i]));
      const wire = overTheWire(node.create(input, key)) as unknown as Wire;
      mutation.apply(wire, c);
      for (const protocol of [node, tweetnacl, libsodium, hashingTexts]) {
        const report = protocol.verify(wire);
        assert.equal(report.valid, false, mutation.name);
        assert.equal(report.code, failureCode(mutation.expect), `${mutation.name}: ${report.reason ?? ''}`);
      }
      seen.add(mutation.name);
    }),
    { numRuns: (NUM_RUNS * 3) / 2 },
  );
  t.deepEqual([...seen].sort(), MUTATIONS.map((m) => m.name).sort(), 'every kind of mutation ran');
});

// ---- (c) JCS is idempotent ------------------------------------------------------------

test('canonical text is a fixed point: C(parse(C(v))) = C(v)', (t) => {
  fc.assert(
    fc.property(fc.jsonValue({ stringUnit: 'grapheme' }), (value) => {
      const once = canonicalText(value);
      assert.notEqual(once, null);
      assert.equal(canonicalText(JSON.parse(once!)), once);
    }),
    { numRuns: NUM_RUNS * 5 },
  );
  t.pass();
});

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, child]) => LONE_SURROGATE.test(key) || hasLoneSurrogate(child));
}

// fast-check's own units only make well-formed strings; mixing in lone UTF-16 halves makes
// strings with and without canonical form (adjacent halves may still pair up, as on the wire).
const codeUnit = fc.oneof(
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((n) => String.fromCharCode(n)) },
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
);

test('canonical text is null exactly for values holding a lone surrogate, else a fixed point', (t) => {
  let withoutForm = 0;
  fc.assert(
    fc.property(fc.jsonValue({ stringUnit: codeUnit }), (value) => {
      const once = canonicalText(value);
      assert.equal(once === null, hasLoneSurrogate(value));
      if (once === null) withoutForm++;
      else assert.equal(canonicalText(JSON.parse(once)), once);
    }),
    { numRuns: NUM_RUNS * 5 },
  );
  t.true(withoutForm > 0, 'some generated values had a lone surrogate');
});
