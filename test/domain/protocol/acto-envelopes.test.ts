import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import { receivedText } from '../../../src/application/proofs/received-envelope.js';
import { toReport } from '../../../src/application/proofs/verify-proof.js';
import { parseReceivedJson } from '../../../src/domain/protocol/received-json.js';
import { signatureVerdict } from '../../../src/domain/protocol/verify-envelope.js';
import { actoEnvelopeText, envelopeTextOf, sdkEnvelopes } from '../../support/acto.js';
import { proofVectors } from '../../support/fixtures.js';
import { protocol, protocols } from '../../support/protocol.js';

const failedCheck = (report: { checks: Record<string, string> }) => Object.entries(report.checks).find(([, status]) => status === 'failed')?.[0];

for (const [adapter, p] of Object.entries(protocols)) {
  for (const c of sdkEnvelopes()) {
    test(`${adapter}: SDK envelope ${c.name} → ${c.expect.valid ? 'valid' : `fails at ${c.expect.failed_check}`}, from its text`, (t) => {
      const text = envelopeTextOf(c.body);
      const value = JSON.parse(text) as { payload: Record<string, unknown> };
      const read = parseReceivedJson(text, 32);
      if (!isRight(read)) return t.fail('the fixture is JSON');
      // The text itself, the parsed value with the body it came in, and the value read keeping numbers: one verdict.
      const reports = [p.verifyText(text), p.verify(value, receivedText(c.body, 33)('envelope')), p.verify(read.right)];
      for (const report of reports) {
        t.is(report.valid, c.expect.valid, report.reason ?? '');
        if (c.expect.valid) {
          t.is(report.proof_id, c.expect.proof_id!);
          // The JCS form is tried first: it matches wherever both forms write the same text.
          const jcs = protocol.payloadHash(value.payload) === c.expect.proof_id;
          t.is(report.canonical_form, jcs ? 'jcs' : 'acto');
          t.is(report.hash_alg, 'blake3');
        } else {
          t.is(failedCheck(report), c.expect.failed_check);
          t.is(Object.values(report.checks).filter((s) => s === 'failed').length, 1);
          t.is(report.canonical_form, null);
        }
      }
    });
  }
}

test('from a parsed value alone, an envelope with a whole float is not decided: the reason asks for the text', (t) => {
  const c = sdkEnvelopes().find((e) => e.name === 'whole-floats')!;
  const report = protocol.verify(JSON.parse(envelopeTextOf(c.body)));
  t.false(report.valid);
  t.is(report.code, 'telemetry_hash_mismatch');
  t.regex(report.reason!, /the ACTO form needs the text as received \(56 or 56\.0\?\)/);
});

test('from a parsed value alone, an ACTO envelope whose floats all have a fraction is decided', (t) => {
  const text = actoEnvelopeText({ data: '{"\\ud83d\\ude00": 2.5, "\\uff61": 2.5e-06, "g": 9.80665}', meta: '{"gain": 0.75}' });
  const report = protocol.verify(JSON.parse(text));
  t.true(report.valid, report.reason ?? '');
  t.is(report.canonical_form, 'acto');
});

test('an integer past 2^53 is hashed with its exact digits: one unit less is another proof, though it parses to the same double', (t) => {
  const c = sdkEnvelopes().find((e) => e.name === 'negative-zero-and-big-int')!;
  const text = envelopeTextOf(c.body);
  t.true(protocol.verifyText(text).valid);
  const altered = text.replace('9007199254740993', '9007199254740992');
  t.not(altered, text);
  t.deepEqual(JSON.parse(altered), JSON.parse(text), 'JavaScript cannot tell them apart');
  const report = protocol.verifyText(altered);
  t.false(report.valid);
  t.is(failedCheck(report), 'telemetry_hash');
});

test('the received text must be the checked envelope: a tampered value with the original text is refused', (t) => {
  const c = sdkEnvelopes().find((e) => e.name === 'whole-floats')!;
  const tampered = JSON.parse(envelopeTextOf(c.body)) as { payload: { telemetry_normalized: { events: Array<{ data: Record<string, unknown> }> } } };
  tampered.payload.telemetry_normalized.events[0]!.data['percent'] = 86;
  const report = protocol.verify(tampered, receivedText(c.body, 33)('envelope'));
  t.false(report.valid);
  t.is(failedCheck(report), 'telemetry_hash');
});

test('hash_alg "sha256": SHA-256 in either form; refused where the verifier has no SHA-256', (t) => {
  const acto = actoEnvelopeText({ data: '{"percent": 85.0}', hashAlg: 'sha256' });
  const jcs = actoEnvelopeText({ data: '{"percent": 85}', hashAlg: 'sha256' });
  for (const [text, form] of [
    [acto, 'acto'],
    [jcs, 'jcs'],
  ] as const) {
    const report = protocol.verifyText(text);
    t.true(report.valid, report.reason ?? '');
    t.is(report.canonical_form, form);
    t.is(report.hash_alg, 'sha256');
  }
  const tampered = protocol.verifyText(acto.replace('85.0', '86.0'));
  t.is(failedCheck(tampered), 'telemetry_hash');
  t.regex(tampered.reason!, /SHA-256 hash \(payload\.hash_alg is "sha256"\)/);
  const noSha256 = protocols['libsodium, hashing texts'].verifyText(acto);
  t.is(noSha256.code, 'unsupported_hash_alg');
  t.regex(noSha256.reason!, /hash_alg must be "blake3" or "sha256"/);
});

test('both exponent spellings verify (orjson before and from 3.11.7), but not one for the telemetry and the other for the payload', (t) => {
  const data = '{"a": 1e+16, "b": 1.2345678901234568e+17, "c": 56.0}';
  for (const spelling of ['ryu', 'plus'] as const) {
    const report = protocol.verifyText(actoEnvelopeText({ data, spelling }));
    t.true(report.valid, `${spelling}: ${report.reason ?? ''}`);
    t.is(report.canonical_form, 'acto');
  }
  const mixed = protocol.verifyText(actoEnvelopeText({ data, spelling: 'ryu', payloadSpelling: 'plus' }));
  t.false(mixed.valid);
  t.is(failedCheck(mixed), 'payload_hash');
  t.regex(mixed.reason!, /payload in the ACTO form/);
});

test('checks 1–6 and the signature verdict give the report verify gives, canonical form included', (t) => {
  const text = envelopeTextOf(sdkEnvelopes().find((e) => e.name === 'large-floats')!.body);
  const pending = protocol.prepare(JSON.parse(text), receivedText(text, 32)());
  if (!isRight(pending)) return t.fail(JSON.stringify(pending.left));
  t.is(pending.right.canonicalForm, 'acto');
  t.deepEqual(toReport(signatureVerdict(pending.right, true)), protocol.verifyText(text));
});

test('text given to checkText comes back as the envelope JSON to store; text that is not JSON is a shape failure', async (t) => {
  const text = envelopeTextOf(sdkEnvelopes().find((e) => e.name === 'astral-key-order')!.body);
  const checked = protocol.checkText(text);
  t.true(isRight(checked) && checked.right.envelopeJson === text);
  const byPort = await protocol.checker.check(JSON.parse(text), text);
  t.true(isRight(byPort) && byPort.right.canonicalForm === 'acto');
  const notJson = protocol.verifyText('{"payload": ');
  t.is(notJson.code, 'malformed_envelope');
  t.regex(notJson.reason!, /^envelope is not JSON text/);
});

test('a string given as the value is a JSON string, no envelope, as it always was: only verifyText reads text', (t) => {
  const text = envelopeTextOf(sdkEnvelopes().find((e) => e.name === 'integers-only')!.body);
  const report = protocol.verify(text);
  t.false(report.valid);
  t.is(report.code, 'malformed_envelope');
  t.true(protocol.verifyText(text).valid);
});

test('envelopes in the JCS form report it, with BLAKE3', (t) => {
  const valid = proofVectors().cases.find((c) => c.name === 'valid-minimal')!;
  const report = protocol.verify(valid.envelope);
  t.is(report.canonical_form, 'jcs');
  t.is(report.hash_alg, 'blake3');
  t.deepEqual(protocol.verifyText(JSON.stringify(valid.envelope)), report);
});
