import test from 'ava';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pacedLoad, type LoadClock } from '../../bench/paced-load.js';

/**
 * Virtual time for the load, paired with a test server: time moves on only once every request
 * due so far has reached the server, so each arrival is stamped with the moment it was due and
 * nothing depends on how busy the machine is. Request number `held`, if given, is answered only
 * once request `held + 30` has arrived.
 */
async function pacedServer(rate: number, statusOf: (n: number) => number = () => 200, held?: number) {
  let now = 0;
  const arrivals: number[] = [];
  let arrived: (() => void) | undefined;
  let release: (() => void) | undefined;
  const releasing = new Promise<void>((resolve) => (release = resolve));
  const s = createServer((req: IncomingMessage, res: ServerResponse) => {
    const n = arrivals.push(now) - 1;
    req.resume();
    req.on('end', () => {
      if (n === held) void releasing.then(() => res.writeHead(statusOf(n)).end('{}'));
      else res.writeHead(statusOf(n)).end('{}');
      if (held !== undefined && n === held + 30) release?.();
      arrived?.();
    });
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  /** Requests due by virtual time `t` (ms): request i is due at i × 1000 / rate. */
  const dueBy = (t: number) => Math.floor((t * rate) / 1000) + 1;
  const allArrived = async (): Promise<void> => {
    while (arrivals.length < dueBy(now)) await new Promise<void>((resolve) => (arrived = resolve));
  };
  const clock: LoadClock = {
    now: () => now,
    after: (ms, fn) => {
      void allArrived().then(() => {
        now += ms;
        fn();
      });
    },
  };
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return { url, clock, arrivals, close: () => new Promise<void>((resolve) => s.close(() => resolve())) };
}

test('sends rate × duration requests, each when it is due, and counts the ones that fail', async (t) => {
  const s = await pacedServer(100, (n) => (n % 10 === 0 ? 500 : 200));
  try {
    const figures = await pacedLoad({ url: s.url, path: '/', headers: {}, bodies: ['{}'], connections: 4, durationS: 1, rate: 100 }, s.clock);
    t.is(figures.total, 100);
    t.is(figures.non2xx, 10);
    t.is(figures.errors, 0);
    // Open loop at 100/s: request i goes out at i × 10 ms, not in a burst.
    t.deepEqual(
      s.arrivals,
      Array.from({ length: 100 }, (_, i) => i * 10),
    );
  } finally {
    await s.close();
  }
});

test('a slow answer does not hold back the requests due after it, and its wait is counted', async (t) => {
  // Request 10 is answered only after request 40 has arrived: 300 ms later, at 100/s.
  const s = await pacedServer(100, () => 200, 10);
  try {
    const figures = await pacedLoad({ url: s.url, path: '/', headers: {}, bodies: ['{}'], connections: 1, durationS: 1, rate: 100 }, s.clock);
    t.is(figures.total, 100);
    // The 30 requests due while it waited went out on time.
    t.deepEqual(
      s.arrivals.slice(11, 41),
      Array.from({ length: 30 }, (_, i) => 110 + i * 10),
    );
    // One request in a hundred took 300 ms from when it was due: the 99th percentile sees it.
    t.true(figures.p99Ms >= 300, `p99 ${figures.p99Ms} ms`);
  } finally {
    await s.close();
  }
});
