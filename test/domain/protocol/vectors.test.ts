import test from 'ava';
import { CanonicalJson } from '../../../src/domain/protocol/canonical.js';
import { proofVectors } from '../../support/fixtures.js';
import { protocols } from '../../support/protocol.js';

const vectors = proofVectors();

for (const [adapter, protocol] of Object.entries(protocols)) {
  for (const c of vectors.cases) {
    test(`${adapter}: ${c.name} → ${c.expect.valid ? 'valid' : 'invalid'}`, (t) => {
      const report = protocol.verify(c.envelope);
      t.is(report.valid, c.expect.valid, report.reason ?? '');
      if (c.expect.valid) {
        t.is(report.proof_id, c.expect.proof_id ?? null);
        t.is(report.reason, null);
        t.true(Object.values(report.checks).every((s) => s === 'passed'));
      } else {
        t.is(report.proof_id, null);
        for (const word of c.expect.detail_mentions ?? []) t.true(report.reason!.includes(word), `"${report.reason}" lacks "${word}"`);
        t.is(Object.values(report.checks).filter((s) => s === 'failed').length, 1);
      }
    });
  }
}

for (const c of vectors.cases.filter((v) => v.canonical_payload)) {
  test(`canonical texts of ${c.name} match the independent implementation`, (t) => {
    const payload = (c.envelope as { payload: Record<string, unknown> }).payload;
    const canonical = new CanonicalJson();
    t.is(canonical.text(payload.telemetry_normalized), c.canonical_telemetry ?? null);
    const written = canonical.payload(payload);
    const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? null : new TextDecoder().decode(bytes));
    t.is(text(written?.bytes), c.canonical_payload ?? null);
    t.is(text(written?.telemetry), c.canonical_telemetry ?? null, 'the telemetry is its span of the payload');
  });
}

/** A vector with some of its payload members replaced (the signature no longer matters: earlier checks fail first). */
const altered = (name: string, payload: Record<string, unknown>): unknown => {
  const envelope = vectors.cases.find((c) => c.name === name)!.envelope as { payload: Record<string, unknown> };
  return { ...envelope, payload: { ...envelope.payload, ...payload } };
};

test('a hash that is not lowercase hex fails at its own check, after the checks before it', (t) => {
  const protocol = protocols['node:crypto'];
  const valid = vectors.cases.find((c) => c.name === 'valid-minimal')!;
  const hash = (valid.envelope as { payload: { payload_hash: string } }).payload.payload_hash;

  // Check 2 comes before check 5: a bad version is named, not the upper-case hash.
  const both = protocol.verify(altered('valid-minimal', { version: '2', payload_hash: hash.toUpperCase() }));
  t.is(both.checks.algorithms, 'failed');
  t.regex(both.reason!, /payload\.version/);

  // Alone, the upper-case hash is a payload_hash that does not match, with a hint.
  const upper = protocol.verify(altered('valid-minimal', { payload_hash: hash.toUpperCase() }));
  t.is(upper.checks.payload_hash, 'failed');
  t.regex(upper.reason!, /payload_hash does not match .*lowercase hex/);

  // Not even a string of hex: the same check, and a long claim is not quoted whole.
  const long = protocol.verify(altered('valid-minimal', { telemetry_hash: 'z'.repeat(5000) }));
  t.is(long.checks.telemetry_hash, 'failed');
  t.true(long.reason!.length < 400, long.reason!);
  t.regex(long.reason!, /5000 characters/);

  // A hash of the wrong JSON type is still check 1.
  const number = protocol.verify(altered('valid-minimal', { payload_hash: 5 }));
  t.is(number.checks.shape, 'failed');
  t.regex(number.reason!, /payload\.payload_hash must be a string/);
});

test('a created_at with more than nine fraction digits verifies (RFC 3339 sets no limit)', (t) => {
  const protocol = protocols['node:crypto'];
  const envelope = protocol.create({ taskId: 'fraction', events: [], createdAt: '2026-11-20T10:00:00.123456789012+01:00' }, new Uint8Array(32).fill(7));
  const report = protocol.verify(envelope);
  t.true(report.valid, report.reason ?? '');
});
