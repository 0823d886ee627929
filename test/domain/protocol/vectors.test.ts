import test from 'ava';
import { canonicalPayloadText, canonicalText } from '../../../src/domain/protocol/canonical.js';
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
    t.is(canonicalText(payload.telemetry_normalized), c.canonical_telemetry ?? null);
    t.is(canonicalPayloadText(payload), c.canonical_payload ?? null);
  });
}
