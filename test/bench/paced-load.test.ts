import test from 'ava';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pacedLoad } from '../../bench/paced-load.js';

/** A server that answers each request after `delayMs(n)` (n counts from 0), with status `statusOf(n)`. */
async function server(delayMs: (n: number) => number, statusOf: (n: number) => number = () => 200) {
  const arrivals: number[] = [];
  const s = createServer((req: IncomingMessage, res: ServerResponse) => {
    const n = arrivals.push(performance.now()) - 1;
    req.resume();
    req.on('end', () => setTimeout(() => res.writeHead(statusOf(n)).end('{}'), delayMs(n)));
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return { url, arrivals, close: () => new Promise<void>((resolve) => s.close(() => resolve())) };
}

test('sends rate × duration requests, evenly spaced, and counts the ones that fail', async (t) => {
  const s = await server(() => 0, (n) => (n % 10 === 0 ? 500 : 200));
  try {
    const figures = await pacedLoad({ url: s.url, path: '/', headers: {}, bodies: ['{}'], connections: 4, durationS: 1, rate: 100 });
    t.is(figures.total, 100);
    t.is(s.arrivals.length, 100);
    t.is(figures.non2xx, 10);
    t.is(figures.errors, 0);
    // Open loop at 100/s: the 100 arrivals span about one second, not a burst.
    const span = s.arrivals[99]! - s.arrivals[0]!;
    t.true(span > 900 && span < 1300, `span ${span} ms`);
  } finally {
    await s.close();
  }
});

test('a slow answer does not hold back the requests due after it, and its wait is counted', async (t) => {
  // Request 10 takes 300 ms; at 100/s about 30 more are due meanwhile and must go out on time.
  const s = await server((n) => (n === 10 ? 300 : 0));
  try {
    const figures = await pacedLoad({ url: s.url, path: '/', headers: {}, bodies: ['{}'], connections: 1, durationS: 1, rate: 100 });
    t.is(figures.total, 100);
    const gaps = s.arrivals.slice(11, 40).map((at, i) => at - s.arrivals[10 + i]!);
    t.true(Math.max(...gaps) < 60, `largest gap after the slow request: ${Math.max(...gaps)} ms`);
    // One request in a hundred took 300 ms: the 99th percentile sees it.
    t.true(figures.p99Ms >= 290, `p99 ${figures.p99Ms} ms`);
    t.true(figures.p50Ms < 50, `p50 ${figures.p50Ms} ms`);
  } finally {
    await s.close();
  }
});
