import test from 'ava';
import { startVerifyPool } from '../../../src/adapters/workers/verify-pool.js';
import { WorkerBatchVerifier } from '../../../src/adapters/workers/worker-batch-verifier.js';
import { WorkerPool } from '../../../src/adapters/workers/worker-pool.js';
import { WorkerProofChecker } from '../../../src/adapters/workers/worker-proof-checker.js';
import { proofVectors } from '../../support/fixtures.js';
import { anEnvelope, twoKilobyteEvents } from '../../support/mothers.js';
import { protocol } from '../../support/protocol.js';
import { fakeWorkers, until } from './fake-verify-worker.js';

const large = Array.from({ length: 300 }, (_, i) => {
  const envelope = anEnvelope({ taskId: `task-${i}`, events: twoKilobyteEvents(undefined, i), seed: i % 5 });
  return i % 7 === 3 ? { ...envelope, payload: { ...envelope.payload, created_at: '2026-11-20T10:00:01Z' } } : envelope;
});
const mixed: unknown[] = [...proofVectors().cases.map((c) => c.envelope), null, 42, 'x', [], { payload: 1 }, ...large];
const tags = (outcomes: ReadonlyArray<{ _tag: string }>) => outcomes.map((o) => o._tag);

// Two real verify workers, shared by the tests that look only at results.
let pool: WorkerPool;
let shared: WorkerProofChecker;
test.before(async () => {
  pool = await startVerifyPool({ size: 2 });
  shared = new WorkerProofChecker(pool, protocol);
});
test.after.always(() => pool.close());

test.serial('concurrent checks get what an inline check gets, and keep the caller’s envelope', async (t) => {
  const inlineBefore = pool.stats.jobsInline;
  const outcomes = await Promise.all(mixed.map((raw) => shared.check(raw)));
  mixed.forEach((raw, i) => {
    const expected = protocol.check(raw);
    const got = outcomes[i]!;
    if (expected._tag === 'Left') t.deepEqual(got, expected, `index ${i}`);
    else if (got._tag === 'Right') {
      t.is(got.right.proofId, expected.right.proofId);
      t.is(got.right.createdAtMs, expected.right.createdAtMs);
      t.is(got.right.envelope as unknown, raw, 'the stored envelope is the caller’s object, not a copy');
    } else t.fail(`index ${i}: ${JSON.stringify(got.left)}`);
  });
  t.is(pool.stats.jobsInline, inlineBefore, 'the workers answered');
  t.is(outcomes.filter((o) => o._tag === 'Right').length, 4 + 300 - 43);
});

test.serial('a submission checked by a worker carries the JSON text it was sent as, for storing', async (t) => {
  const envelopes = large.slice(0, 12).filter((_, i) => i % 7 !== 3);
  const outcomes = await Promise.all(envelopes.map((raw) => shared.check(raw)));
  outcomes.forEach((outcome, i) => {
    if (outcome._tag !== 'Right') return t.fail(`envelope ${i} did not verify`);
    t.is(outcome.right.envelopeJson, JSON.stringify(envelopes[i]));
    t.true(outcome.right.envelope === envelopes[i], "the stored envelope is the caller's own object");
  });
});

test.serial('a submission given with its own JSON text is checked and carried as that text', async (t) => {
  const envelopes = large.slice(0, 12).filter((_, i) => i % 7 !== 3);
  const texts = envelopes.map((raw) => JSON.stringify(raw, null, 1));
  const outcomes = await Promise.all(envelopes.map((raw, i) => shared.check(raw, texts[i])));
  outcomes.forEach((outcome, i) => {
    if (outcome._tag !== 'Right') return t.fail(`envelope ${i} did not verify`);
    t.is(outcome.right.envelopeJson, texts[i], 'the caller’s text, not JSON.stringify’s');
    t.is(outcome.right.proofId, (protocol.check(envelopes[i]) as { right: { proofId: string } }).right.proofId);
  });
  // The worker checks the text, so a text that is not the envelope's answers for the text:
  // the caller's promise (the text parses to exactly `raw`) is what makes them agree.
  t.is((await shared.check(large[0], JSON.stringify({ payload: 'not an envelope' })))._tag, 'Left');
});

test('checks are answered even when every worker crashes, and inline once the pool is closed', async (t) => {
  const fakes = fakeWorkers(protocol, { answer: () => 'crash' });
  const own = await WorkerPool.start({ size: 1, spawn: fakes.spawn });
  const checker = new WorkerProofChecker(own, protocol);
  const outcomes = await Promise.all(large.slice(0, 20).map((raw) => checker.check(raw)));
  t.deepEqual(tags(outcomes), tags(large.slice(0, 20).map((raw) => protocol.check(raw))));
  t.true(own.stats.jobsInline >= 1);
  await own.close();
  await until(() => own.size === 0);
  const sent = fakes.started.reduce((n, w) => n + w.received.length, 0);
  t.is((await checker.check(large[0]))._tag, 'Right');
  t.is(
    fakes.started.reduce((n, w) => n + w.received.length, 0),
    sent,
    'after close nothing goes to a worker',
  );
});

test('a submission goes before the waiting chunks of batches', async (t) => {
  // One worker, holding its answers: the order of what it received is the order of sending.
  const fakes = fakeWorkers(protocol, { hold: true });
  const own = await WorkerPool.start({ size: 1, spawn: fakes.spawn });
  try {
    const checker = new WorkerProofChecker(own, protocol);
    const batches = new WorkerBatchVerifier(own, protocol);
    const first = batches.verifyMany(large);
    const second = batches.verifyMany(large);
    const checked = checker.check(large[0]);
    const worker = fakes.started[0]!;
    await until(() => worker.received.length === 3);
    t.deepEqual(
      worker.received.map((r) => ('json' in r ? 'submission' : 'chunk')),
      ['chunk', 'chunk', 'submission'],
      'sent while both batches still had chunks waiting',
    );
    worker.release();
    t.is((await checked)._tag, 'Right');
    t.is((await first).length, large.length);
    t.is((await second).length, large.length);
  } finally {
    await own.close();
  }
});

test('submissions go to all workers but one, batches to any', async (t) => {
  const fakes = fakeWorkers(protocol, { hold: true });
  const own = await WorkerPool.start({ size: 3, spawn: fakes.spawn });
  try {
    const checker = new WorkerProofChecker(own, protocol);
    const batches = new WorkerBatchVerifier(own, protocol);
    const checks = Promise.all(large.slice(0, 200).map((raw) => checker.check(raw)));
    await until(() => fakes.started[0]!.received.length > 0);
    const kinds = () => fakes.started.map((w) => w.received.map((r) => ('json' in r ? 'submission' : 'chunk')));
    t.true(kinds()[0]!.length > 0 && kinds()[1]!.length > 0, 'the first two took submissions');
    t.deepEqual(kinds()[2], [], 'the third took none');
    const batch = batches.verifyMany(large);
    await until(() => fakes.started[2]!.received.length === 2);
    t.deepEqual(kinds()[2], ['chunk', 'chunk'], 'a batch reaches the third as well');
    for (const worker of fakes.started) worker.release();
    t.deepEqual(tags(await checks), tags(large.slice(0, 200).map((raw) => protocol.check(raw))));
    t.is((await batch).length, large.length);
  } finally {
    await own.close();
  }
});

test('submissions that arrive in separate turns go out at once, up to eight messages in flight to a worker', async (t) => {
  // The worker answers nothing until released: a pool that waited for an answer before
  // sending the next submissions would have sent only one.
  const fakes = fakeWorkers(protocol, { hold: true });
  const own = await WorkerPool.start({ size: 1, spawn: fakes.spawn });
  try {
    const checker = new WorkerProofChecker(own, protocol);
    const envelopes = large.slice(0, 10);
    const outcomes: Array<Promise<{ _tag: string }>> = [];
    for (const raw of envelopes) {
      outcomes.push(checker.check(raw));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const worker = fakes.started[0]!;
    await until(() => worker.received.length === 8);
    t.is(worker.heldCount, 8, 'one message a turn, eight in flight; the last two wait for room');
    worker.release();
    t.deepEqual(tags(await Promise.all(outcomes)), tags(envelopes.map((raw) => protocol.check(raw))));
    t.is(worker.received.length, 9, 'the two that waited went together');
    t.is(own.stats.jobsInline, 0, 'all were checked by the worker');
  } finally {
    await own.close();
  }
});
