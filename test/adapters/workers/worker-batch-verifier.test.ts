import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { InlineBatchVerifier, prepareSafely } from '../../../src/adapters/crypto/inline-batch-verifier.js';
import { spawnWorker } from '../../../src/adapters/workers/spawn-worker.js';
import { startVerifyPool } from '../../../src/adapters/workers/verify-pool.js';
import { WorkerBatchVerifier } from '../../../src/adapters/workers/worker-batch-verifier.js';
import { WorkerPool } from '../../../src/adapters/workers/worker-pool.js';
import { proofVectors } from '../../support/fixtures.js';
import { anEnvelope, twoKilobyteEvents } from '../../support/mothers.js';
import { protocol } from '../../support/protocol.js';
import { fakeWorkers, until } from './fake-verify-worker.js';

const inline = new InlineBatchVerifier(protocol);

/** 300 signed ~2 KB proofs, every 7th tampered after signing: enough to go to the workers. */
const large = Array.from({ length: 300 }, (_, i) => {
  const envelope = anEnvelope({ taskId: `task-${i}`, events: twoKilobyteEvents(undefined, i), seed: i % 5 });
  return i % 7 === 3 ? { ...envelope, payload: { ...envelope.payload, created_at: '2026-11-20T10:00:01Z' } } : envelope;
});
const mixed: unknown[] = [...proofVectors().cases.map((c) => c.envelope), null, 42, 'x', [], { payload: 1 }, ...large];

const hostile = (): object => ({
  get payload(): never {
    throw new Error('boom');
  },
});

// Two real verify workers, shared by the tests that look only at results.
let pool: WorkerPool;
let shared: WorkerBatchVerifier;
test.before(async () => {
  pool = await startVerifyPool({ size: 2 });
  shared = new WorkerBatchVerifier(pool, protocol);
});
test.after.always(() => pool.close());

test.serial('a mixed batch gets the same reports as inline, verified by the workers', async (t) => {
  const before = pool.stats;
  const reports = await shared.verifyMany(mixed);
  t.deepEqual(reports, await inline.verifyMany(mixed));
  t.is(reports.filter((r) => r.valid).length, 4 + 300 - 43);
  t.is(pool.stats.jobsInline, before.jobsInline, 'no chunk fell back to inline');
  t.true(pool.stats.messagesPerWorker.reduce((a, b) => a + b) > before.messagesPerWorker.reduce((a, b) => a + b), 'the workers took chunks');
  t.is(pool.stats.workers, 2);
});

test('input order is kept: each report names the proof at its index', async (t) => {
  const batch = [...large].reverse();
  const reports = await shared.verifyMany(batch);
  batch.forEach((envelope, i) => t.is(reports[i]!.proof_id, protocol.verify(envelope).proof_id, `index ${i}`));
});

test('concurrent batches do not mix their results', async (t) => {
  const [ra, rb] = await Promise.all([shared.verifyMany(large.slice(0, 150)), shared.verifyMany(large.slice(150))]);
  t.deepEqual([...ra, ...rb], await inline.verifyMany(large));
});

test.serial('an envelope that throws or is not JSON fails alone, not the batch, checked here up to the signature', async (t) => {
  const batch: unknown[] = [...large.slice(0, 100)];
  batch[10] = hostile();
  batch[20] = { payload: { amount: 1n } }; // BigInt: JSON cannot carry it
  const inlineBefore = pool.stats.jobsInline;
  const reports = await shared.verifyMany(batch);
  t.deepEqual(reports, await inline.verifyMany(batch));
  t.is(pool.stats.jobsInline, inlineBefore);
  t.regex(reports[10]!.reason!, /could not be read \(boom\)/);
  t.false(reports[20]!.valid);
});

test('values that are not JSON (a Date, undefined members, a Map) get the reports inline verification gives', async (t) => {
  const odd = large
    .slice(0, 80)
    .map((envelope, i) =>
      i % 4 === 0 ? { ...envelope, payload: { ...envelope.payload, meta: { at: new Date(0), gone: undefined, map: new Map([[1, 2]]) } } } : envelope,
    );
  const reports = await shared.verifyMany(odd);
  t.deepEqual(reports, await inline.verifyMany(odd));
  t.true(reports.some((r) => r.valid) && reports.some((r) => r.code === 'payload_hash_mismatch'));
});

test('the event loop is served between chunks of a large batch', async (t) => {
  const order: string[] = [];
  const batch = shared.verifyMany(large).then(() => order.push('batch'));
  setImmediate(() => order.push('immediate'));
  await batch;
  t.deepEqual(order, ['immediate', 'batch']);
});

test('small batches, and every batch once the pool is closed, are verified inline', async (t) => {
  const fakes = fakeWorkers(protocol);
  const own = await WorkerPool.start({ size: 1, spawn: fakes.spawn });
  const verifier = new WorkerBatchVerifier(own, protocol);
  t.deepEqual(await verifier.verifyMany(large.slice(0, 63)), await inline.verifyMany(large.slice(0, 63)));
  t.deepEqual(fakes.started[0]!.received, [], 'fewer than 64 envelopes never reach a worker');
  await own.close();
  await until(() => own.size === 0);
  t.deepEqual(await verifier.verifyMany(large.slice(0, 100)), await inline.verifyMany(large.slice(0, 100)));
  t.deepEqual(fakes.started[0]!.received, []);
});

test('once the whole batch is checked, this thread verifies the signatures of chunks no worker has taken', async (t) => {
  // The workers hold their answers: the two chunks each took wait, and the rest stay queued
  // until this thread, done checking, verifies them itself.
  const fakes = fakeWorkers(protocol, { hold: true });
  const own = await WorkerPool.start({ size: 2, spawn: fakes.spawn });
  try {
    const verifier = new WorkerBatchVerifier(own, protocol);
    const reports = verifier.verifyMany(mixed);
    // Chunks of 16 envelopes; those with a signature left to verify go to a worker or are helped.
    const chunks = Array.from({ length: Math.ceil(mixed.length / 16) }, (_, k) => mixed.slice(16 * k, 16 * k + 16));
    const withSignatures = chunks.filter((chunk) => chunk.some((raw) => E.isRight(prepareSafely(protocol, raw)))).length;
    await until(() => verifier.chunksHelped === withSignatures - 4);
    for (const worker of fakes.started) worker.release();
    t.deepEqual(await reports, await inline.verifyMany(mixed));
    t.is(verifier.chunksHelped, withSignatures - 4, 'every chunk but the four the workers took was verified here');
    t.deepEqual(own.stats.messagesPerWorker, [2, 2], 'each worker took two chunks, its pipeline depth');
    t.is(own.stats.jobsInline, 0);
  } finally {
    await own.close();
  }
});

test('a worker that crashes is replaced and its chunks verified inline', async (t) => {
  const crashing = new URL('./crashing-verify-worker.ts', import.meta.url);
  const own = await WorkerPool.start({ size: 2, spawn: () => spawnWorker(crashing, null) });
  try {
    const verifier = new WorkerBatchVerifier(own, protocol);
    t.deepEqual(await verifier.verifyMany(mixed), await inline.verifyMany(mixed));
    t.true(own.stats.restarts >= 1);
    t.true(own.stats.jobsInline >= 1);
  } finally {
    await own.close();
  }
});

test('a worker that answers short, reports a throwing verifier or answers another chunk is not trusted', async (t) => {
  let turn = 0;
  const fakes = fakeWorkers(protocol, {
    answer: (request) => {
      const count = 'count' in request ? request.count : 0;
      const kind = turn++ % 3;
      if (kind === 0) return [{ type: 'verified', id: request.id, verdicts: new Uint8Array(Math.max(0, count - 1)).fill(1) }];
      if (kind === 1) return [{ type: 'verified', id: request.id, verdicts: new Uint8Array(count).fill(2) }];
      return [
        { type: 'verified', id: request.id + 1_000_000, verdicts: new Uint8Array(count).fill(1) },
        { type: 'failed', id: request.id, error: 'no' },
      ];
    },
  });
  const own = await WorkerPool.start({ size: 1, spawn: fakes.spawn });
  try {
    const verifier = new WorkerBatchVerifier(own, protocol);
    t.deepEqual(await verifier.verifyMany(mixed), await inline.verifyMany(mixed));
    t.true(own.stats.jobsInline >= 2, `${own.stats.jobsInline} chunks inline`);
  } finally {
    await own.close();
  }
});
