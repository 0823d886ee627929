import test from 'ava';
import { envelopeTextOf, sdkEnvelopes } from '../../support/acto.js';
import { WALLET_A } from '../../support/mothers.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';

// Envelopes the ACTO SDK made, sent as the very bodies its HTTP client sent (Python's JSON:
// `56.0` stays `56.0`, non-ASCII text as `\u` escapes). Each route must judge the text it
// received, not a re-serialised value, or the ACTO form's floats are lost.
const cases = sdkEnvelopes();
const valid = cases.filter((c) => c.expect.valid);

for (const workers of [false, true]) {
  const where = workers ? 'verify workers' : 'event loop';
  let registry: TestRegistry;
  test.before(async () => {
    registry = await startTestRegistry({ workers, ...(workers ? { env: { VERIFY_WORKERS: '2' } } : {}) });
  });
  test.after.always(async () => registry?.close());

  test(`${where}: POST /v1/verify judges every SDK envelope as its body was sent`, async (t) => {
    for (const c of cases) {
      const res = await registry.call(WALLET_A, 'POST', '/v1/verify', c.body);
      t.is(res.status, 200, c.name);
      t.is(res.body.valid, c.expect.valid, `${c.name}: ${res.body.reason}`);
      if (c.expect.valid) t.is(res.body.proof_id, c.expect.proof_id, c.name);
      else t.is(res.body.checks[c.expect.failed_check!], 'failed', c.name);
    }
  });

  test(`${where}: POST /v1/proofs stores every valid SDK envelope under its payload hash, as sent, and refuses the tampered at the named check`, async (t) => {
    for (const c of cases) {
      const res = await registry.call(WALLET_A, 'POST', '/v1/proofs', c.body);
      if (!c.expect.valid) {
        t.is(res.status, 422, c.name);
        t.is(res.body.check, c.expect.failed_check, c.name);
        continue;
      }
      t.is(res.status, 200, `${c.name}: ${JSON.stringify(res.body)}`);
      t.is(res.body.proof_id, c.expect.proof_id, c.name);
      const got = await registry.call(WALLET_A, 'GET', `/v1/proofs/${c.expect.proof_id}`);
      t.is(got.status, 200, c.name);
      t.deepEqual(got.body.envelope, JSON.parse(envelopeTextOf(c.body)), c.name);
    }
  });

  test(`${where}: POST /v1/score scores every valid SDK envelope and refuses the tampered`, async (t) => {
    for (const c of cases) {
      const res = await registry.call(WALLET_A, 'POST', '/v1/score', c.body);
      t.is(res.status, c.expect.valid ? 200 : 422, `${c.name}: ${JSON.stringify(res.body)}`);
      if (c.expect.valid) t.is(res.body.proof_id, c.expect.proof_id, c.name);
    }
  });

  // 70 envelopes: past the size below which a batch is verified inline, so the worker path runs too.
  test(`${where}: POST /v1/verify/batch judges each SDK envelope in place, in a small batch and a large one`, async (t) => {
    for (const copies of [1, 5]) {
      const batch = Array.from({ length: copies }, () => cases).flat();
      const body = `{"envelopes": [${batch.map((c) => envelopeTextOf(c.body)).join(', ')}]}`;
      const res = await registry.call(WALLET_A, 'POST', '/v1/verify/batch', body);
      t.is(res.status, 200);
      t.is(res.body.total, batch.length);
      t.is(res.body.valid_count, valid.length * copies);
      batch.forEach((c, i) => {
        const r = res.body.results[i];
        t.is(r.index, i);
        t.is(r.valid, c.expect.valid, `${c.name}: ${r.reason}`);
        if (c.expect.valid) t.is(r.proof_id, c.expect.proof_id, c.name);
        else t.is(r.checks[c.expect.failed_check!], 'failed', c.name);
      });
    }
  });
}
