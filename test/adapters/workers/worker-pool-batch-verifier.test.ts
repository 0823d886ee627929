import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import test from 'ava';
import { InlineBatchVerifier } from '../../../src/adapters/crypto/inline-batch-verifier.js';
import { WorkerPoolBatchVerifier } from '../../../src/adapters/workers/worker-pool-batch-verifier.js';
import { proofVectors } from '../../support/fixtures.js';
import { anEnvelope, twoKilobyteEvents } from '../../support/mothers.js';
import { protocol } from '../../support/protocol.js';

const inline = new InlineBatchVerifier(protocol);
const run = promisify(execFile);

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

let shared: WorkerPoolBatchVerifier;
test.before(async () => {
  shared = await WorkerPoolBatchVerifier.create({ size: 2 });
});
test.after.always(async () => {
  await shared.close();
});

test.serial('a mixed batch gets the same reports as inline, verified by the workers', async (t) => {
  const before = shared.stats;
  const reports = await shared.verifyMany(mixed);
  t.deepEqual(reports, await inline.verifyMany(mixed));
  t.is(reports.filter((r) => r.valid).length, 4 + 300 - 43);
  t.is(shared.stats.chunksInline, before.chunksInline, 'no chunk fell back to inline');
  t.is(shared.stats.workers, 2);
});

test('input order is kept: each report names the proof at its index', async (t) => {
  const batch = [...large].reverse();
  const reports = await shared.verifyMany(batch);
  batch.forEach((envelope, i) => {
    const expected = protocol.verify(envelope);
    t.is(reports[i]!.proof_id, expected.proof_id, `index ${i}`);
  });
});

test('concurrent batches do not mix their results', async (t) => {
  const a = large.slice(0, 150);
  const b = large.slice(150);
  const [ra, rb] = await Promise.all([shared.verifyMany(a), shared.verifyMany(b)]);
  t.deepEqual([...ra, ...rb], await inline.verifyMany(large));
});

test('an envelope that throws or is not JSON fails alone, not the batch', async (t) => {
  const batch: unknown[] = [...large.slice(0, 100)];
  batch[10] = hostile();
  batch[20] = { payload: { amount: 1n } }; // BigInt: JSON cannot carry it
  const chunksBefore = shared.stats.chunksInline;
  const reports = await shared.verifyMany(batch);
  t.deepEqual(reports, await inline.verifyMany(batch));
  t.is(shared.stats.chunksInline, chunksBefore, 'checked here up to the signature, whatever the value');
  t.regex(reports[10]!.reason!, /could not be read \(boom\)/);
  t.false(reports[20]!.valid);
});

test('the structured-clone transport gives the same reports', async (t) => {
  const pool = await WorkerPoolBatchVerifier.create({ size: 2, transport: 'clone' });
  try {
    t.deepEqual(await pool.verifyMany(mixed), await inline.verifyMany(mixed));
    t.is(pool.stats.chunksInline, 0);
  } finally {
    await pool.close();
  }
});

test('a worker that crashes is replaced and its chunk verified inline', async (t) => {
  const pool = await WorkerPoolBatchVerifier.create({
    size: 2,
    workerScript: new URL('./crashing-verify-worker.ts', import.meta.url),
  });
  try {
    t.deepEqual(await pool.verifyMany(mixed), await inline.verifyMany(mixed));
    t.true(pool.stats.restarts >= 1);
    t.true(pool.stats.chunksInline >= 1);
    // Small batches never reach the (crashing) workers.
    const restarts = pool.stats.restarts;
    t.deepEqual(await pool.verifyMany(large.slice(0, 63)), await inline.verifyMany(large.slice(0, 63)));
    t.is(pool.stats.restarts, restarts);
  } finally {
    await pool.close();
  }
});

test('workers verify only the signatures; envelopes that are not JSON get inline reports too', async (t) => {
  // Values JSON would change (a Date, undefined members, a Map) are checked here as they are.
  const odd = large.slice(0, 80).map((envelope, i) =>
    i % 4 === 0 ? { ...envelope, payload: { ...envelope.payload, meta: { at: new Date(0), gone: undefined, map: new Map([[1, 2]]) } } } : envelope,
  );
  const reports = await shared.verifyMany(odd);
  t.deepEqual(reports, await inline.verifyMany(odd));
  t.true(reports.some((r) => r.valid) && reports.some((r) => r.code === 'PayloadHashMismatch'));
});

test('a worker that answers short, reports a throwing verifier or answers another chunk is not trusted', async (t) => {
  const pool = await WorkerPoolBatchVerifier.create({ size: 1, workerScript: new URL('./misanswering-verify-worker.ts', import.meta.url) });
  try {
    t.deepEqual(await pool.verifyMany(mixed), await inline.verifyMany(mixed));
    t.true(pool.stats.chunksInline >= 2, `${pool.stats.chunksInline} chunks inline`);
  } finally {
    await pool.close();
  }
});

test('the event loop is served between chunks of a large batch', async (t) => {
  const order: string[] = [];
  const batch = shared.verifyMany(large).then(() => order.push('batch'));
  setImmediate(() => order.push('immediate'));
  await batch;
  t.deepEqual(order, ['immediate', 'batch']);
});

test('create fails when a worker cannot start', async (t) => {
  await t.throwsAsync(WorkerPoolBatchVerifier.create({ size: 1, workerScript: new URL('./no-such-worker.ts', import.meta.url) }), {
    message: /before it was ready/,
  });
});

test('after close, batches still get reports, verified inline', async (t) => {
  const pool = await WorkerPoolBatchVerifier.create({ size: 1 });
  await pool.close();
  t.is(pool.stats.workers, 0);
  t.deepEqual(await pool.verifyMany(large.slice(0, 100)), await inline.verifyMany(large.slice(0, 100)));
});

/** Runs a module in a fresh Node process with tsx, as `npm start` would, and returns its output. */
async function inFreshProcess(body: string): Promise<string> {
  const poolUrl = new URL('../../../src/adapters/workers/worker-pool-batch-verifier.ts', import.meta.url).href;
  const mothersUrl = new URL('../../support/mothers.ts', import.meta.url).href;
  const code = `
    const { WorkerPoolBatchVerifier } = await import(${JSON.stringify(poolUrl)});
    const { anEnvelope } = await import(${JSON.stringify(mothersUrl)});
    const pool = await WorkerPoolBatchVerifier.create({ size: 2 });
    const reports = await pool.verifyMany(Array.from({ length: 200 }, (_, i) => anEnvelope({ taskId: 't' + i })));
    console.log(reports.filter((r) => r.valid).length, pool.stats.chunksInline);
    ${body}`;
  // The timeout fails the test if live workers keep the child from exiting.
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { timeout: 60_000 });
  return stdout.trim();
}

test('close() lets the process exit', async (t) => {
  t.is(await inFreshProcess('await pool.close();'), '200 0');
});

test('an idle pool that is never closed does not keep the process alive', async (t) => {
  t.is(await inFreshProcess(''), '200 0');
});

// ---- single submissions (ProofChecker) ----------------------------------------------------

test.serial('concurrent single checks get what an inline check gets, and keep the caller’s envelope', async (t) => {
  const chunksBefore = shared.stats.chunksInline;
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
  t.is(shared.stats.chunksInline, chunksBefore, 'the workers answered');
  t.is(outcomes.filter((o) => o._tag === 'Right').length, 4 + 300 - 43);
});

test('single checks are answered even when every worker crashes', async (t) => {
  const pool = await WorkerPoolBatchVerifier.create({ size: 1, workerScript: new URL('./crashing-verify-worker.ts', import.meta.url) });
  try {
    const outcomes = await Promise.all(large.slice(0, 20).map((raw) => pool.check(raw)));
    t.deepEqual(
      outcomes.map((o) => o._tag),
      large.slice(0, 20).map((raw) => protocol.check(raw)._tag),
    );
    t.true(pool.stats.chunksInline >= 1);
  } finally {
    await pool.close();
  }
});

test('after close, single checks run inline', async (t) => {
  const pool = await WorkerPoolBatchVerifier.create({ size: 1 });
  await pool.close();
  const outcome = await pool.check(large[0]);
  t.is(outcome._tag, 'Right');
});

test('a submission checked while batches are queued goes before their waiting chunks', async (t) => {
  // One worker answers its messages in order, so the order of the answers is the order in
  // which the pool sent the work.
  const pool = await WorkerPoolBatchVerifier.create({ size: 1 });
  try {
    const first = pool.verifyMany(large);
    let secondDone = false;
    const second = pool.verifyMany(large).then((reports) => {
      secondDone = true;
      return reports;
    });
    const checked = await pool.check(large[0]);
    t.false(secondDone, 'the submission waited behind every queued chunk');
    t.true(checked._tag === 'Right');
    t.is((await first).length, large.length);
    t.is((await second).length, large.length);
  } finally {
    await pool.close();
  }
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
  const other = await shared.check(large[0], JSON.stringify({ payload: 'not an envelope' }));
  t.is(other._tag, 'Left');
});

test('submissions go to all workers but one, batches to any', async (t) => {
  const pool = await WorkerPoolBatchVerifier.create({ size: 3 });
  try {
    const outcomes = await Promise.all(large.slice(0, 200).map((raw) => pool.check(raw)));
    t.deepEqual(
      outcomes.map((o) => o._tag),
      large.slice(0, 200).map((raw) => protocol.check(raw)._tag),
    );
    const afterChecks = pool.stats.messagesPerWorker;
    t.true(afterChecks[0]! > 0 && afterChecks[1]! > 0, `the first two workers took submissions: ${afterChecks.join(', ')}`);
    t.is(afterChecks[2], 0, 'the third took none');
    // With the submission workers kept busy, a batch's chunks go to the third.
    await Promise.all([...large.map((raw) => pool.check(raw)), pool.verifyMany(large)]);
    t.true(pool.stats.messagesPerWorker[2]! > 0, `a batch reaches the third as well: ${pool.stats.messagesPerWorker.join(', ')}`);
  } finally {
    await pool.close();
  }
});

test('submissions that arrive in separate turns go out at once, eight messages in flight to a worker', async (t) => {
  // The worker answers nothing until it holds eight messages: a pool that waited for an
  // answer before sending the next submissions would leave these unanswered.
  const pool = await WorkerPoolBatchVerifier.create({ size: 1, workerScript: new URL('./holding-verify-worker.ts', import.meta.url) });
  try {
    const envelopes = large.slice(0, 10);
    const outcomes: Array<Promise<unknown>> = [];
    for (const raw of envelopes) {
      outcomes.push(pool.check(raw));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const answered = await Promise.race([Promise.all(outcomes), new Promise((resolve) => setTimeout(resolve, 5_000, 'stuck'))]);
    t.not(answered, 'stuck', 'the submissions were held back');
    t.deepEqual(
      (answered as Array<{ _tag: string }>).map((o) => o._tag),
      envelopes.map((raw) => protocol.check(raw)._tag),
    );
    // One message a turn up to eight; the last two may have waited for the first answers and gone together.
    t.true(pool.stats.messagesPerWorker[0]! >= 9, `messages: ${pool.stats.messagesPerWorker[0]}`);
    t.is(pool.stats.chunksInline, 0, 'all were checked by the worker');
  } finally {
    await pool.close();
  }
});

test('once the whole batch is checked, the pool verifies the signatures of chunks no worker has taken yet', async (t) => {
  // Each worker answers a chunk only after 100 ms; with two chunks in flight per worker, the
  // rest wait in the queue, and the event loop's thread verifies them instead.
  const pool = await WorkerPoolBatchVerifier.create({ size: 2, workerScript: new URL('./slow-verify-worker.ts', import.meta.url) });
  try {
    const reports = await pool.verifyMany(mixed);
    t.deepEqual(reports, await inline.verifyMany(mixed));
    t.true(pool.stats.chunksHelped > 0, `chunks verified here: ${pool.stats.chunksHelped}`);
    t.true(pool.stats.messagesPerWorker.every((n) => n > 0), `the workers took chunks too: ${pool.stats.messagesPerWorker.join(', ')}`);
    t.is(pool.stats.chunksInline, 0);
  } finally {
    await pool.close();
  }
});

test('the number of submission workers can be set, from one to the pool size', async (t) => {
  const all = await WorkerPoolBatchVerifier.create({ size: 2, submissionWorkers: 2 });
  try {
    await Promise.all(large.slice(0, 200).map((raw) => all.check(raw)));
    t.true(all.stats.messagesPerWorker.every((n) => n > 0), all.stats.messagesPerWorker.join(', '));
  } finally {
    await all.close();
  }
  await t.throwsAsync(WorkerPoolBatchVerifier.create({ size: 2, submissionWorkers: 3 }), { message: /submission workers must be 1 to the pool size 2/ });
  await t.throwsAsync(WorkerPoolBatchVerifier.create({ size: 2, submissionWorkers: 0 }), { message: /submission workers/ });
});
