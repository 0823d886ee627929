import { Agent, request } from 'node:http';
import type { LoadFigures, LoadOptions } from './http-load.js';

/** Where the load reads the time and waits for the next request's moment; tests pass their own. */
export interface LoadClock {
  now(): number;
  after(ms: number, fn: () => void): void;
}

const realClock: LoadClock = { now: () => performance.now(), after: (ms, fn) => void setTimeout(fn, ms) };

/**
 * An open-loop load at a steady rate: request i is due at start + i / rate, whatever happened
 * to the ones before, and its latency runs from when it was due, not from when it went out.
 * A slow server therefore cannot slow the load down and hide its own delays (coordinated
 * omission), and a late load generator only makes the figures worse.
 *
 * autocannon's rate option is a quota per connection per second: each connection sends its
 * share back to back as the second starts and then waits, so "500 requests a second" over 32
 * connections arrives as bursts at the server's full speed. This is the steady load a fleet of
 * devices sending now and then makes.
 */
export async function pacedLoad(o: LoadOptions & { readonly rate: number }, clock: LoadClock = realClock): Promise<LoadFigures> {
  const url = new URL(o.path, o.url);
  // Enough sockets that a request never waits for one: at most `rate × latency` are busy.
  const agent = new Agent({ keepAlive: true, maxSockets: Math.max(o.connections, 256) });
  const total = Math.round(o.rate * o.durationS);
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  const start = clock.now();

  const send = (body: string, due: number): Promise<void> =>
    new Promise((resolve) => {
      const req = request(
        url,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...o.headers } },
        (res) => {
          const chunks: Buffer[] = [];
          if (o.onResponse) res.on('data', (chunk: Buffer) => chunks.push(chunk));
          else res.resume();
          res.on('end', () => {
            latencies.push(clock.now() - due);
            o.onResponse?.(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'));
            if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) non2xx++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });

  const inFlight: Promise<void>[] = [];
  await new Promise<void>((done) => {
    const tick = (): void => {
      const now = clock.now();
      // Every request already due goes now; the next tick comes when the next one is due.
      while (sent < total && start + (sent * 1000) / o.rate <= now) {
        const due = start + (sent * 1000) / o.rate;
        inFlight.push(send(o.bodies[sent % o.bodies.length]!, due));
        sent++;
      }
      if (sent >= total) return done();
      clock.after(Math.max(0, start + (sent * 1000) / o.rate - clock.now()), tick);
    };
    tick();
  });
  await Promise.all(inFlight);
  const seconds = (clock.now() - start) / 1000;
  agent.destroy();
  if (sent > o.bodies.length) console.warn(`warning: ${sent} requests but only ${o.bodies.length} distinct bodies; later ones were duplicates`);

  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    requestsPerSec: latencies.length / seconds,
    p50Ms: Math.round(at(0.5) * 10) / 10,
    p99Ms: Math.round(at(0.99) * 10) / 10,
    non2xx,
    errors,
    total: latencies.length,
  };
}
