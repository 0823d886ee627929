import test from 'ava';
import * as c from '../../../src/adapters/http/codecs/proof.codecs.js';
import { anEnvelope, WALLET_A, WALLET_B } from '../../support/mothers.js';
import { conforms } from '../../support/conforms.js';
import type { TestRegistry } from '../../support/registry.js';
import { invalid, startProofRegistry, valid, WALLET_C } from './proof-routes-support.js';

let registry: TestRegistry;
test.before(async () => {
  registry = await startProofRegistry();
});
test.after.always(async () => registry?.close());

test('POST /v1/proofs stores every valid vector and returns its proof_id', async (t) => {
  for (const v of valid) {
    const res = await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope: v.envelope });
    t.is(res.status, 200, v.name);
    t.is(res.body.proof_id, v.expect.proof_id);
    t.true(conforms(c.SubmitResponse, res.body));
  }
});

test('POST /v1/proofs rejects every invalid vector with 422 naming the problem, storing nothing', async (t) => {
  for (const v of invalid) {
    const res = await registry.call(WALLET_B, 'POST', '/v1/proofs', { envelope: v.envelope });
    t.is(res.status, 422, v.name);
    for (const word of v.expect.detail_mentions ?? []) t.true(res.body.detail.includes(word), `${v.name}: "${res.body.detail}" lacks ${word}`);
    // One refusal, one code: the 422 says what POST /v1/verify says, in snake_case, with the failed check.
    const report = (await registry.call(WALLET_B, 'POST', '/v1/verify', { envelope: v.envelope })).body;
    t.regex(res.body.code, /^[a-z]+(_[a-z0-9]+)*$/, v.name);
    t.is(res.body.code, report.code, v.name);
    t.is(report.checks[res.body.check], 'failed', v.name);
  }
  const list = await registry.call(WALLET_B, 'GET', '/v1/proofs');
  t.deepEqual(list.body.items, []);
});

test('a duplicate submission returns the same proof_id and leaves the stored copy untouched', async (t) => {
  const envelope = anEnvelope({ taskId: 'dup', robotId: 'r-dup' });
  const first = await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope });
  const before = await registry.call(WALLET_A, 'GET', `/v1/proofs/${first.body.proof_id}`);
  const again = await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope: { ...envelope, anchor_ref: 'changed' } });
  t.is(again.status, 200);
  t.is(again.body.proof_id, first.body.proof_id);
  t.false(first.body.duplicate);
  t.true(again.body.duplicate);
  const after = await registry.call(WALLET_A, 'GET', `/v1/proofs/${first.body.proof_id}`);
  t.deepEqual(after.body, before.body);
});

test('concurrent submissions of one envelope store it once', async (t) => {
  const envelope = anEnvelope({ taskId: 'race' });
  const replies = await Promise.all(Array.from({ length: 25 }, () => registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope })));
  t.true(replies.every((r) => r.status === 200));
  t.is(new Set(replies.map((r) => r.body.proof_id)).size, 1);
  t.is(replies.filter((r) => !r.body.duplicate).length, 1);
  const listed = await registry.call(WALLET_A, 'GET', '/v1/proofs?task_id=race');
  t.is(listed.body.items.length, 1);
});

test('POST /v1/verify reports validity without storing', async (t) => {
  const wallet = 'VerifyWallet111111111111111111111111111111111';
  const ok = await registry.call(wallet, 'POST', '/v1/verify', { envelope: valid[0]!.envelope });
  t.is(ok.status, 200);
  t.like(ok.body, { valid: true, proof_id: valid[0]!.expect.proof_id, reason: null });
  t.true(conforms(c.VerifyResponse, ok.body));
  const bad = await registry.call(wallet, 'POST', '/v1/verify', { envelope: invalid[0]!.envelope });
  t.is(bad.status, 200);
  t.false(bad.body.valid);
  t.is(typeof bad.body.reason, 'string');
  const missing = await registry.call(wallet, 'POST', '/v1/verify', {});
  t.is(missing.status, 422);
  t.true(missing.body.detail.includes('envelope'));
  t.deepEqual((await registry.call(wallet, 'GET', '/v1/proofs')).body.items, []);
});

test('POST /v1/verify/batch answers in input order, one result per envelope', async (t) => {
  const envelopes = [valid[0]!.envelope, null, invalid[3]!.envelope, valid[1]!.envelope, 'x'];
  const res = await registry.call(WALLET_A, 'POST', '/v1/verify/batch', { envelopes });
  t.is(res.status, 200);
  t.true(conforms(c.BatchResponse, res.body));
  t.deepEqual(
    res.body.results.map((r: { index: number; valid: boolean }) => [r.index, r.valid]),
    [
      [0, true],
      [1, false],
      [2, false],
      [3, true],
      [4, false],
    ],
  );
  t.like(res.body, { total: 5, valid_count: 2, invalid_count: 3 });
  t.is((await registry.call(WALLET_A, 'POST', '/v1/verify/batch', { envelopes: [] })).status, 422);
  t.is((await registry.call(WALLET_A, 'POST', '/v1/verify/batch', { envelopes: Array(1001).fill(null) })).status, 422);
  t.is((await registry.call(WALLET_A, 'POST', '/v1/verify/batch', {})).status, 422);
});

test('POST /v1/score scores a stored proof or an inline envelope', async (t) => {
  const envelope = anEnvelope({ taskId: 'score', topics: ['a', 'b', 'c'] });
  const { body } = await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope });
  const byId = await registry.call(WALLET_A, 'POST', '/v1/score', { proof_id: body.proof_id });
  t.is(byId.status, 200);
  t.true(conforms(c.ScoreResponse, byId.body));
  t.true(byId.body.score >= 0 && byId.body.score <= 1);
  const inline = await registry.call(WALLET_A, 'POST', '/v1/score', { envelope });
  t.deepEqual(inline.body, byId.body);
  t.is((await registry.call(WALLET_B, 'POST', '/v1/score', { proof_id: body.proof_id })).status, 404);
  t.is((await registry.call(WALLET_A, 'POST', '/v1/score', { envelope: invalid[3]!.envelope })).status, 422);
  t.is((await registry.call(WALLET_A, 'POST', '/v1/score', {})).status, 422);
  t.is((await registry.call(WALLET_A, 'POST', '/v1/score', { proof_id: body.proof_id, envelope })).status, 422);
});

test('created_at is shown in UTC with the digits as signed; the envelope keeps the offset', async (t) => {
  const envelope = anEnvelope({ taskId: 'offset-proof', createdAt: '2026-11-20T12:00:00.250+02:00' });
  const stored = await registry.call(WALLET_C, 'POST', '/v1/proofs', { envelope });
  t.is(stored.status, 200);
  const read = await registry.call(WALLET_C, 'GET', `/v1/proofs/${stored.body.proof_id}`);
  t.is(read.body.created_at, '2026-11-20T10:00:00.250Z');
  t.is(read.body.envelope.payload.created_at, '2026-11-20T12:00:00.250+02:00');
  const listed = await registry.call(WALLET_C, 'GET', '/v1/proofs?task_id=offset-proof');
  t.is(listed.body.items[0].created_at, '2026-11-20T10:00:00.250Z');
});

test('a proof whose task_id, robot_id, run_id or topic is longer than 256 characters is 422 and not stored', async (t) => {
  const long = 'é'.repeat(257);
  const cases: Array<[Parameters<typeof anEnvelope>[0], RegExp]> = [
    [{ taskId: long }, /^proof not stored: payload\.subject\.task_id is 257 characters long/],
    [{ taskId: 'long-robot', robotId: long }, /payload\.subject\.robot_id is 257/],
    [{ taskId: 'long-run', runId: long }, /payload\.subject\.run_id is 257/],
    [{ taskId: 'long-topic', topics: ['nav/pose', long] }, /payload\.telemetry_normalized\.events\[1\]\.topic is 257/],
  ];
  for (const [options, detail] of cases) {
    const envelope = anEnvelope(options);
    const res = await registry.call(WALLET_C, 'POST', '/v1/proofs', { envelope });
    t.is(res.status, 422);
    t.regex(res.body.detail, detail);
    t.is(res.body.code, 'unstorable_proof');
    // It verifies: the limit is the registry's, not the protocol's.
    t.true((await registry.call(WALLET_C, 'POST', '/v1/verify', { envelope })).body.valid);
    t.is((await registry.call(WALLET_C, 'GET', `/v1/proofs/${envelope.payload.payload_hash}`)).status, 404);
  }
  // 256 is stored, and a filter takes it.
  const longest = anEnvelope({ taskId: 'é'.repeat(256) });
  t.is((await registry.call(WALLET_C, 'POST', '/v1/proofs', { envelope: longest })).status, 200);
  const found = await registry.call(WALLET_C, 'POST', '/v1/proofs/search', { task_id: 'é'.repeat(256) });
  t.deepEqual(
    found.body.items.map((i: { proof_id: string }) => i.proof_id),
    [longest.payload.payload_hash],
  );
});
