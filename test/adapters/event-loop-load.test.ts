import test from 'ava';
import { EventLoopLoad } from '../../src/adapters/event-loop-load.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a loop kept busy reads near 1, one left idle near 0', async (t) => {
  const load = new EventLoopLoad(50);
  t.teardown(() => load.close());
  t.is(load.busyShare(), 0, 'nothing measured yet');
  // Busy: 300 ms of work in slices, so the gauge's timer can fire between them.
  const until = Date.now() + 300;
  while (Date.now() < until) {
    const slice = Date.now() + 20;
    while (Date.now() < slice);
    await new Promise((resolve) => setImmediate(resolve));
  }
  t.true(load.busyShare() > 0.6, `busy: ${load.busyShare()}`);
  await sleep(300);
  t.true(load.busyShare() < 0.4, `idle: ${load.busyShare()}`);
});
