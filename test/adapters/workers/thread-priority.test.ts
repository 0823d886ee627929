import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import test from 'ava';
import { spawnWorker } from '../../../src/adapters/workers/spawn-worker.js';
import {
  currentThreadId,
  DEFAULT_HELPER_NICE,
  helperNiceFor,
  lowerHelperThreads,
  lowerThreadPriority,
  NICEST,
} from '../../../src/adapters/workers/thread-priority.js';

// Priorities are per thread on Linux only (CI runs there); elsewhere the functions do nothing.
// Serial: lowerHelperThreads (last) lowers every thread of this process, the others' workers too.
const linux = process.platform === 'linux';
const reporter = new URL('./priority-reporting-worker.ts', import.meta.url);

async function startedWorker(niceIncrement?: number): Promise<{ id: number; nice: number }> {
  const worker = spawnWorker(reporter, null, niceIncrement === undefined ? {} : { niceIncrement });
  const [report] = (await once(worker, 'message')) as [{ id: number; nice: number }];
  await worker.terminate();
  return report;
}

/** A worker that runs until terminated, and its thread id. */
async function runningWorker(): Promise<{ worker: Worker; id: number }> {
  const worker = spawnWorker(reporter, { stay: true });
  const [report] = (await once(worker, 'message')) as [{ id: number }];
  return { worker, id: report.id };
}

test('by default helpers go DEFAULT_HELPER_NICE below the event loop with two cores or more, not at all on one; a configured increment stands', (t) => {
  t.is(helperNiceFor(null, 1), 0);
  t.is(helperNiceFor(null, 2), DEFAULT_HELPER_NICE);
  t.is(helperNiceFor(null, 64), DEFAULT_HELPER_NICE);
  t.is(helperNiceFor(7, 1), 7);
  t.is(helperNiceFor(0, 8), 0);
});

(linux ? test.serial : test.skip)('the main thread is its own id; a worker has another', async (t) => {
  t.is(currentThreadId(), process.pid);
  const worker = await startedWorker();
  t.not(worker.id, process.pid);
});

(linux ? test.serial : test.skip)(
  'a worker spawned with a niceIncrement runs that far below the thread that spawned it; without, at its priority',
  async (t) => {
    const base = getPriority(currentThreadId()!);
    t.is((await startedWorker()).nice, base);
    t.is((await startedWorker(0)).nice, base);
    t.is((await startedWorker(3)).nice, Math.min(NICEST, base + 3));
  },
);

(linux ? test.serial : test.skip)('lowering never raises a priority and stops at the nicest', async (t) => {
  const { worker, id } = await runningWorker();
  try {
    setPriority(id, Math.min(NICEST, getPriority(id) + 5));
    const niced = getPriority(id);
    t.true(lowerThreadPriority(id, 0));
    t.is(getPriority(id), niced);
    t.true(lowerThreadPriority(id, 40));
    t.is(getPriority(id), NICEST);
  } finally {
    await worker.terminate();
  }
  t.false(lowerThreadPriority(2 ** 30, 1), 'no such thread');
  t.throws(() => lowerThreadPriority(id, -1), { instanceOf: RangeError });
  t.throws(() => spawnWorker(reporter, null, { niceIncrement: 1.5 }), { instanceOf: RangeError });
});

(linux ? test.serial : test.skip)('lowerHelperThreads puts every other thread of the process below the main thread, which keeps its priority', async (t) => {
  const self = currentThreadId()!;
  const base = getPriority(self);
  const { worker, id } = await runningWorker();
  try {
    t.is(lowerHelperThreads(0), 0, 'an increment of 0 changes nothing');
    const others = readdirSync('/proc/self/task')
      .map(Number)
      .filter((id) => id !== self);
    t.true(others.length >= 2, 'libuv and V8 run threads of their own');
    t.true(lowerHelperThreads(4) >= others.length);
    t.is(getPriority(self), base);
    t.true(others.includes(id));
    for (const other of others) t.true(getPriority(other) >= Math.min(NICEST, base + 4), `thread ${other}`);
  } finally {
    await worker.terminate();
  }
});
