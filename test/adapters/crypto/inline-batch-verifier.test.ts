import test from 'ava';
import { InlineBatchVerifier } from '../../../src/adapters/crypto/inline-batch-verifier.js';
import { proofVectors } from '../../support/fixtures.js';
import { anEnvelope } from '../../support/mothers.js';
import { protocol } from '../../support/protocol.js';

const verifier = new InlineBatchVerifier(protocol);

test('each vector gets the report verify gives it, in input order', async (t) => {
  const envelopes = proofVectors().cases.map((c) => c.envelope);
  const reports = await verifier.verifyMany(envelopes);
  t.deepEqual(
    reports,
    envelopes.map((e) => protocol.verify(e)),
  );
  t.deepEqual(
    reports.map((r) => r.valid),
    proofVectors().cases.map((c) => c.expect.valid),
  );
});

test('values that are not envelopes get their own invalid report', async (t) => {
  const reports = await verifier.verifyMany([null, 42, 'x', [], undefined, anEnvelope()]);
  t.deepEqual(
    reports.map((r) => r.code),
    ['malformed_envelope', 'malformed_envelope', 'malformed_envelope', 'malformed_envelope', 'malformed_envelope', null],
  );
  t.is(reports[0]!.reason, 'envelope must be an object (got null)');
  t.true(reports[5]!.valid);
});

test('an envelope that throws when read fails alone, not the batch', async (t) => {
  const hostile = {
    get payload(): never {
      throw new Error('boom');
    },
  };
  const reports = await verifier.verifyMany([anEnvelope(), hostile, anEnvelope({ taskId: 'task-2' })]);
  t.deepEqual(
    reports.map((r) => r.valid),
    [true, false, true],
  );
  t.is(reports[1]!.code, 'malformed_envelope');
  t.regex(reports[1]!.reason!, /could not be read \(boom\)/);
  t.is(reports[1]!.checks.shape, 'failed');
});

test('an empty batch gives no reports', async (t) => {
  t.deepEqual(await verifier.verifyMany([]), []);
});
