import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { proofVectors } from '../../support/fixtures.js';
import type { JsonObject } from '../../../src/domain/protocol/envelope.js';
import { anEnvelope, WALLET_A, WALLET_B } from '../../support/mothers.js';
import { fixedClock, startTestRegistry, type TestRegistry } from '../../support/registry.js';

// The wiring `npm start` uses on a database file: submissions checked on the verify workers,
// proofs written by the writer thread. Same answers as inline, whatever the concurrency.
const vectors = proofVectors();
const dir = mkdtempSync(join(tmpdir(), 'registry-wiring-'));
let registry: TestRegistry;
test.before(async () => {
  registry = await startTestRegistry({
    workers: true,
    env: { DATABASE_URL: `sqlite:${join(dir, 'registry.sqlite')}`, VERIFY_WORKERS: '2', HELPER_THREAD_NICE: '7' },
    clock: fixedClock('2026-11-20T10:30:00Z'),
  });
});
test.after.always(async () => {
  await registry?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('every vector gets its outcome when checked on the workers, all at once', async (t) => {
  const replies = await Promise.all(vectors.cases.map((v) => registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope: v.envelope })));
  vectors.cases.forEach((v, i) => {
    const res = replies[i]!;
    if (v.expect.valid) {
      t.is(res.status, 200, v.name);
      t.is(res.body.proof_id, v.expect.proof_id);
    } else {
      t.is(res.status, 422, v.name);
      for (const word of v.expect.detail_mentions ?? []) t.true(res.body.detail.includes(word), `${v.name}: "${res.body.detail}" lacks ${word}`);
    }
  });
});

test('concurrent submissions and duplicates through workers and the writer thread: one stored copy each, stored as sent', async (t) => {
  const envelopes = Array.from({ length: 60 }, (_, i) => anEnvelope({ taskId: `wiring-${i}`, robotId: `arm-${i % 3}` }));
  const sent = [...envelopes, ...envelopes.slice(0, 20)];
  const replies = await Promise.all(sent.map((envelope) => registry.call(WALLET_B, 'POST', '/v1/proofs', { envelope })));
  t.true(replies.every((r) => r.status === 200));
  t.is(replies.filter((r) => r.body.duplicate === false).length, 60);
  const listed = await registry.call(WALLET_B, 'GET', '/v1/proofs?limit=200');
  t.is(listed.body.items.length, 60);
  const one = await registry.call(WALLET_B, 'GET', `/v1/proofs/${replies[7]!.body.proof_id}`);
  t.deepEqual(one.body.envelope, envelopes[7]);
  const fleet = await registry.call(WALLET_B, 'GET', '/v1/fleet?limit=10');
  t.is(fleet.status, 200);
  t.deepEqual(fleet.body.devices.map((d: { device_id: string; proof_count: number }) => [d.device_id, d.proof_count]).sort(), [
    ['arm-0', 20],
    ['arm-1', 20],
    ['arm-2', 20],
  ]);
});

test('an envelope with "__proto__" members and one with an out-of-range number get the same answers on the workers as inline', async (t) => {
  const meta = JSON.parse('{"__proto__": {"polluted": true}, "site": "berlin"}') as JsonObject;
  const envelope = anEnvelope({ taskId: 'proto-on-workers', meta });
  const stored = await registry.call(WALLET_A, 'POST', '/v1/proofs', JSON.stringify({ envelope }));
  t.is(stored.status, 200, stored.body.detail);
  const read = await registry.call(WALLET_A, 'GET', `/v1/proofs/${stored.body.proof_id}`);
  t.deepEqual(Object.keys(read.body.envelope.payload.meta), ['__proto__', 'site']);
  t.is(({} as Record<string, unknown>).polluted, undefined);

  // 1e400 parses to Infinity, which has no JSON form: the same failure wherever it is checked.
  const text = JSON.stringify({ envelope: anEnvelope({ taskId: 'overflow' }) }).replace('"seq":0', '"seq":1e400');
  const submitted = await registry.call(WALLET_A, 'POST', '/v1/proofs', text);
  const verified = await registry.call(WALLET_A, 'POST', '/v1/verify', text);
  t.is(submitted.status, 422);
  t.false(verified.body.valid);
  t.is(submitted.body.detail, `invalid proof: ${verified.body.reason}`);
  t.regex(verified.body.reason, /^payload\.telemetry_normalized\.events\[0\]\.data\.seq is a number beyond the range of an IEEE 754 double/);
});

(process.platform === 'linux' ? test : test.skip)(
  'every thread but the event loop runs HELPER_THREAD_NICE below it: workers, writer, libuv and V8 helpers',
  (t) => {
    const base = getPriority(process.pid);
    const others = readdirSync('/proc/self/task')
      .map(Number)
      .filter((id) => id !== process.pid);
    // Two verify workers and the writer thread, besides libuv's pool and V8's helpers.
    t.true(others.length >= 3 + 4);
    for (const id of others) t.true(getPriority(id) >= Math.min(19, base + 7), `thread ${id} at ${getPriority(id)}`);
  },
);
