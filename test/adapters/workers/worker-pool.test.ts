import test from 'ava';
import { WorkerPool, type Lane, type PoolJob } from '../../../src/adapters/workers/worker-pool.js';
import { protocol } from '../../support/protocol.js';
import { fakeWorkers, until, type Request } from './fake-verify-worker.js';

/** A lane of numbered jobs; each remembers how it ended (answered by a worker, or inline). */
function numberedLane(options: { priority: number; depth: number; workers?: number }) {
  const waiting: number[] = [];
  const ended: Array<{ n: number; by: 'worker' | 'inline' }> = [];
  const job = (n: number): PoolJob => ({
    message: () => ({ body: { json: `[${n}]` } }),
    settle: (reply) => {
      if (reply.type !== 'done') return false;
      ended.push({ n, by: 'worker' });
      return true;
    },
    inline: () => ended.push({ n, by: 'inline' }),
  });
  const lane: Lane = { ...options, hasWork: () => waiting.length > 0, dispense: () => () => (waiting.length > 0 ? job(waiting.shift()!) : undefined) };
  return {
    lane,
    ended,
    add: (...ns: number[]) => waiting.push(...ns),
    get waiting() {
      return waiting.length;
    },
  };
}

const numbersIn = (requests: readonly Request[]) => requests.map((r) => ('json' in r ? (JSON.parse(r.json) as number[])[0] : -1));

test('each worker takes a lane’s jobs up to its depth, round-robin; the rest wait for room', async (t) => {
  const fakes = fakeWorkers(protocol, { hold: true });
  const pool = await WorkerPool.start({ size: 2, spawn: fakes.spawn });
  const jobs = numberedLane({ priority: 0, depth: 2 });
  pool.addLane(jobs.lane);
  jobs.add(1, 2, 3, 4, 5, 6);
  pool.pump();
  t.deepEqual(
    fakes.started.map((w) => numbersIn(w.received)),
    [
      [1, 3],
      [2, 4],
    ],
  );
  t.is(jobs.waiting, 2);
  fakes.started[0]!.release();
  await until(() => jobs.ended.length === 4);
  t.deepEqual(numbersIn(fakes.started[0]!.received), [1, 3, 5, 6], 'the freed worker took the waiting jobs');
  fakes.started[1]!.release();
  await until(() => jobs.ended.length === 6);
  t.deepEqual(
    jobs.ended.map((e) => e.by),
    Array(6).fill('worker'),
  );
  await pool.close();
});

test('a lane of a higher priority is served first, whenever it was added; a lane with fewer workers uses only the first ones', async (t) => {
  const fakes = fakeWorkers(protocol, { hold: true });
  const pool = await WorkerPool.start({ size: 3, spawn: fakes.spawn });
  const urgent = numberedLane({ priority: 1, depth: 8, workers: 2 });
  const bulk = numberedLane({ priority: 0, depth: 2 });
  pool.addLane(bulk.lane);
  pool.addLane(urgent.lane);
  bulk.add(100, 101, 102, 103, 104, 105, 106, 107);
  urgent.add(1, 2, 3, 4);
  pool.pump();
  // Workers 1 and 2 take the urgent jobs first, then (with none left) bulk ones up to depth 2;
  // worker 3 never takes urgent jobs.
  t.deepEqual(
    fakes.started.map((w) => numbersIn(w.received)),
    [
      [1, 3],
      [2, 4],
      [100, 101],
    ],
  );
  t.is(bulk.waiting, 6);
  await pool.close();
});

test('a job whose message cannot be made, or whose answer is wrong, is done inline once', async (t) => {
  const fakes = fakeWorkers(protocol, { answer: (r) => [{ type: 'failed', id: r.id, error: 'no' }] });
  const pool = await WorkerPool.start({ size: 1, spawn: fakes.spawn });
  const ended: string[] = [];
  const queue: PoolJob[] = [
    {
      message: () => {
        throw new Error('not sendable');
      },
      settle: () => true,
      inline: () => ended.push('unsendable inline'),
    },
    { message: () => ({ body: { json: '[]' } }), settle: (reply) => reply.type === 'done', inline: () => ended.push('refused inline') },
  ];
  pool.addLane({ priority: 0, depth: 2, hasWork: () => queue.length > 0, dispense: () => () => queue.shift() });
  pool.pump();
  await until(() => ended.length === 2);
  t.deepEqual(ended, ['unsendable inline', 'refused inline']);
  t.is(pool.stats.jobsInline, 2);
  await pool.close();
});

test('a worker that dies is replaced, and its jobs in flight are done inline', async (t) => {
  const fakes = fakeWorkers(protocol, { answer: () => 'crash' });
  const pool = await WorkerPool.start({ size: 1, spawn: fakes.spawn });
  const jobs = numberedLane({ priority: 0, depth: 2 });
  pool.addLane(jobs.lane);
  jobs.add(1, 2);
  pool.pump();
  await until(() => jobs.ended.length === 2);
  t.deepEqual(jobs.ended, [
    { n: 1, by: 'inline' },
    { n: 2, by: 'inline' },
  ]);
  await until(() => fakes.started.length === 2 && pool.size === 1);
  t.is(pool.stats.restarts, 1);
  await pool.close();
});

test('start fails, and stops the other workers, when one exits before it is ready', async (t) => {
  const good = fakeWorkers(protocol);
  const bad = fakeWorkers(protocol, { failToStart: true });
  let n = 0;
  await t.throwsAsync(WorkerPool.start({ size: 2, spawn: () => (n++ === 0 ? good.spawn() : bad.spawn()) }), {
    message: /exited with code 2 before it was ready/,
  });
  t.is(n, 2, 'no worker was started again');
  t.throws(() => good.started[0]!.postMessage({ id: 0, json: '[]' }), { message: 'worker exited' }, 'the ready one was stopped');
  await t.throwsAsync(WorkerPool.start({ size: 0, spawn: good.spawn }), { message: /pool size must be ≥ 1/ });
});

test('after close, waiting and later jobs are done inline', async (t) => {
  const fakes = fakeWorkers(protocol);
  const pool = await WorkerPool.start({ size: 2, spawn: fakes.spawn });
  const jobs = numberedLane({ priority: 0, depth: 2 });
  pool.addLane(jobs.lane);
  await pool.close();
  await until(() => pool.size === 0);
  t.false(pool.open);
  jobs.add(1, 2, 3);
  pool.pump();
  t.deepEqual(
    jobs.ended.map((e) => e.by),
    ['inline', 'inline', 'inline'],
  );
  t.is(fakes.started.length, 2, 'no worker is restarted after close');
});
