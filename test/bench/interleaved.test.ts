import test from 'ava';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChildServer } from '../../bench/child-server.js';
import { interleaved } from '../../bench/interleaved.js';

/** An in-process server answering each request after `delayMs`, keeping the bodies it got and when. */
async function server(delayMs: number) {
  const received: Array<{ body: string; at: number }> = [];
  const s = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString(), at: performance.now() });
      setTimeout(() => res.writeHead(200).end('{}'), delayMs);
    });
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const child: ChildServer = {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    info: {},
    pid: undefined,
    cpuSeconds: () => null,
    stop: () => new Promise<void>((resolve) => s.close(() => resolve())),
  };
  return { child, received };
}

test('two servers take turns; the second goes on through its bodies, each sent once, and the ratio is round by round', async (t) => {
  const fast = await server(0);
  const slow = await server(100);
  const bodies = Array.from({ length: 5_000 }, (_, i) => JSON.stringify({ n: i }));
  try {
    const result = await interleaved(
      [
        { server: fast.child, path: '/', headers: {}, bodies: ['{"ceiling":true}'], reuseBodies: true },
        { server: slow.child, path: '/', headers: {}, bodies },
      ],
      { rounds: 2, sliceS: 0.5, connections: 2, settleMaxMs: 0 },
    );
    const [first, second] = result.figures;
    // The slow server: 2 connections, 100 ms each, at most 20 a second, far below what the fast one
    // answers however busy the machine; each body once, in order, across both slices.
    t.deepEqual(
      slow.received.map((r) => r.body),
      bodies.slice(0, slow.received.length),
    );
    // Counted are the answers; a request still in flight as a slice ends (one a connection) is not.
    t.true(
      second!.total <= slow.received.length && slow.received.length <= second!.total + 2 * 2,
      `${second!.total} answers, ${slow.received.length} received`,
    );
    t.true(first!.total <= fast.received.length && fast.received.length <= first!.total + 2 * 2);
    t.true(second!.p50Ms >= 99, `p50 ${second!.p50Ms} ms`);
    t.is(result.roundRatios.length, 2);
    for (const ratio of result.roundRatios) t.true(ratio > 0 && ratio < 1, `ratio ${ratio}`);
    t.is(second!.serverCpuUs, null, 'no process to read CPU time from');
    // In turns: the fast server, then the slow one twice in a row (rounds go A B, B A), then the fast one.
    const lastSlow = slow.received.at(-1)!.at;
    const firstSlow = slow.received[0]!.at;
    t.true(fast.received.some((r) => r.at < firstSlow) && fast.received.some((r) => r.at > lastSlow));
    t.false(
      fast.received.some((r) => r.at > firstSlow && r.at < lastSlow),
      'the fast server is idle while the slow one runs',
    );
  } finally {
    await fast.child.stop();
    await slow.child.stop();
  }
});

test("a contender's afterSlice runs after each of its slices, with its answers, before the other server's next slice", async (t) => {
  const a = await server(0);
  const b = await server(0);
  const bodies = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ n: i }));
  const calls: Array<{ round: number; answers: number; at: number; durationS: number }> = [];
  let answers = 0;
  try {
    await interleaved(
      [
        { server: a.child, path: '/', headers: {}, bodies: ['{}'], reuseBodies: true },
        {
          server: b.child,
          path: '/',
          headers: {},
          bodies,
          onResponse: (status) => void (status === 200 && answers++),
          afterSlice: async ({ round, durationS }) => {
            // Held a while: the other server must not start meanwhile.
            await new Promise((resolve) => setTimeout(resolve, 100));
            calls.push({ round, answers, at: performance.now(), durationS });
            answers = 0;
          },
        },
      ],
      { rounds: 2, sliceS: 0.3, connections: 2, settleMaxMs: 0 },
    );
    t.deepEqual(
      calls.map((c) => c.round),
      [0, 1],
    );
    for (const c of calls) {
      t.true(c.answers > 0, 'the answers of its slice reached onResponse');
      t.true(c.durationS > 0);
    }
    // Round 0 is A then B, round 1 B then A: A's second slice starts only once B's second afterSlice is done.
    t.true(a.received.some((r) => r.at > calls[1]!.at));
    t.false(
      a.received.some((r) => r.at > calls[1]!.at - 100 && r.at < calls[1]!.at),
      'A is idle while B finishes its slice',
    );
  } finally {
    await a.child.stop();
    await b.child.stop();
  }
});

test('three servers take turns A B C, then C B A, each idle while another runs, with every round’s rates', async (t) => {
  const servers = [await server(0), await server(0), await server(0)];
  const bodies = Array.from({ length: 30_000 }, (_, i) => JSON.stringify({ n: i }));
  try {
    const result = await interleaved(
      [
        { server: servers[0]!.child, path: '/', headers: {}, bodies: ['{}'], reuseBodies: true },
        { server: servers[1]!.child, path: '/', headers: {}, bodies },
        { server: servers[2]!.child, path: '/', headers: {}, bodies, cursor: { next: 0 } },
      ],
      { rounds: 2, sliceS: 0.3, connections: 2, settleMaxMs: 0 },
    );
    t.is(result.figures.length, 3);
    t.is(result.roundRates.length, 2);
    for (const rates of result.roundRates) {
      t.is(rates.length, 3);
      for (const rate of rates) t.true(rate > 0, `rate ${rate}`);
    }
    t.deepEqual(
      result.roundRatios,
      result.roundRates.map((rates) => rates[1]! / rates[0]!),
    );
    // Each server's requests fall in windows that do not overlap, in the order A B C C B A.
    const windows = servers.map((s) => ({ first: s.received[0]!.at, last: s.received.at(-1)!.at, all: s.received.map((r) => r.at) }));
    const order = servers
      .flatMap((s, k) => s.received.map((r) => ({ k, at: r.at })))
      .sort((a, b) => a.at - b.at)
      .map((r) => r.k)
      .filter((k, i, all) => i === 0 || all[i - 1] !== k);
    t.deepEqual(order, [0, 1, 2, 1, 0]);
    t.true(windows[2]!.all.every((at) => at > windows[1]!.all[0]!));
  } finally {
    for (const s of servers) await s.child.stop();
  }
});
