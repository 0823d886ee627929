import test from 'ava';
import type { VerificationReport } from '../../../src/application/proofs/verify-proof.js';
import { CHECKS } from '../../../src/domain/protocol/failures.js';
import { envelopeTextOf, sdkEnvelopes } from '../../support/acto.js';
import { protocol } from '../../support/protocol.js';
import { cli, tempDir, writeFiles } from './harness.js';

// The CLI reads the file's text, so envelopes the ACTO SDK hashed in its own form verify offline.
for (const c of sdkEnvelopes()) {
  test(`verify: SDK envelope ${c.name}, as the body it was sent in and bare → ${c.expect.valid ? 'valid' : `invalid at ${c.expect.failed_check}`}`, async (t) => {
    const dir = tempDir(t);
    const bare = envelopeTextOf(c.body);
    writeFiles(dir, { 'body.json': c.body, 'envelope.json': bare });
    const acto = c.expect.valid && protocol.payloadHash((JSON.parse(bare) as { payload: Record<string, unknown> }).payload) !== c.expect.proof_id;
    for (const file of ['body.json', 'envelope.json']) {
      const human = await cli(['verify', file], dir);
      t.is(human.stderr, '');
      const lines = human.stdout.trimEnd().split('\n');
      t.is(lines.length, 1 + CHECKS.length);
      if (c.expect.valid) {
        t.is(human.code, 0, human.stdout);
        t.is(lines[0], `valid  proof_id ${c.expect.proof_id}${acto ? '  (ACTO form)' : ''}`);
      } else {
        t.is(human.code, 1, human.stdout);
        t.true(lines.includes(`  ${c.expect.failed_check!.padEnd(14)}  failed`), human.stdout);
      }
      const json = await cli(['verify', '--json', file], dir);
      const report = JSON.parse(json.stdout) as VerificationReport;
      t.is(json.code, human.code);
      t.is(report.valid, c.expect.valid);
      t.is(report.canonical_form, c.expect.valid ? (acto ? 'acto' : 'jcs') : null);
    }
    // From standard input, too.
    const piped = await cli(['verify', '-'], dir, c.body);
    t.is(piped.code, c.expect.valid ? 0 : 1);
  });
}
