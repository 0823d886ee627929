import { cpus } from 'node:os';
import { pathToFileURL } from 'node:url';
import { fleetProofBodies } from './fleet-proofs.js';
import type { LoadFigures } from './http-load.js';
import { pacedLoad } from './paced-load.js';
import { deliveryFigures, type DeliveryFigures } from './webhook-deliveries.js';
import { benchWebhookRate, type RateFigures, type RateOptions } from './webhook-rate.js';
import {
  Acknowledgements,
  DELIVERY_WARM_UP_RATE,
  quietMachine,
  startBenchRegistry,
  startReceiver,
  storedProofs,
  warmUp,
  type BenchDatabase,
} from './webhook-setup.js';

/**
 * Events and webhooks (part of `npm run bench`; alone: `npx tsx bench/webhooks.ts`):
 * - the submission rate with one endpoint subscribed to `proof.accepted` against none, in
 *   turns (webhook-rate.ts), on each database;
 * - the delivery latency of an open-loop load (500 and 50 proofs a second by default) to a
 *   registry with one endpoint: from each event's time to its arrival at the receiver, at each
 *   EVENT_POLL_MS; every acknowledged proof must arrive, and be stored.
 */
export interface WebhookOptions extends RateOptions {
  readonly databases: readonly BenchDatabase[];
  readonly durationS: number;
  /** Proofs a second of the latency runs, each at every EVENT_POLL_MS of `pollsMs`. */
  readonly rates: readonly number[];
  readonly pollsMs: readonly number[];
  /** The longest wait for a latency run's deliveries: every acknowledged proof must arrive. */
  readonly latencyDrainMaxS: number;
}

export interface LatencyFigures {
  readonly rate: number;
  readonly pollMs: number;
  /** The submissions' own figures. */
  readonly load: LoadFigures;
  readonly deliveries: DeliveryFigures;
  /** From the load's end to the last acknowledged proof's arrival. */
  readonly drainMs: number;
  /** Acknowledged proofs not in the database once the registry had stopped (it is killed if it cannot stop). */
  readonly notStored: number;
}

export interface WebhookFigures {
  readonly rates: readonly RateFigures[];
  readonly latencies: readonly LatencyFigures[];
  /** What the figures must be read with: a machine that did not get quiet, deliveries waited for in vain, refusals. */
  readonly warnings: readonly string[];
}

/** An open-loop load of `rate` proofs a second for `durationS` to a SQLite registry with one endpoint, EVENT_POLL_MS=pollMs. */
export async function benchWebhookLatency(rate: number, pollMs: number, o: WebhookOptions, warnings: string[]): Promise<LatencyFigures> {
  const receiver = await startReceiver();
  const registry = await startBenchRegistry('sqlite', `wh_latency_${pollMs}`, { EVENT_POLL_MS: String(pollMs) });
  try {
    const connections = o.connectionCounts[0]!;
    const closed = fleetProofBodies(o.warmUpS * 5_000, 'bench-wh-latency-warm-up');
    const paced = fleetProofBodies(2 * DELIVERY_WARM_UP_RATE, 'bench-wh-latency-warm-up-paced');
    const bodies = fleetProofBodies(Math.ceil(o.durationS * rate), 'bench-wh-latency');
    await warmUp(registry, { connections, warmUpS: o.warmUpS, closed, paced, drainMaxS: o.drainMaxS }, receiver);
    await quietMachine(`webhook latency at ${rate}/s, EVENT_POLL_MS=${pollMs}`, warnings);
    const acks = new Acknowledgements();
    const figures = await pacedLoad({
      url: registry.server.url,
      path: '/v1/proofs',
      headers: registry.headers,
      connections,
      bodies,
      durationS: o.durationS,
      rate,
      onResponse: acks.onResponse,
    });
    const endMs = Date.now();
    const acknowledged = acks.take();
    if (!(await receiver.arrivals.waitFor(acknowledged, o.latencyDrainMaxS * 1000))) {
      warnings.push(
        `${rate}/s, EVENT_POLL_MS=${pollMs}: the bench stopped waiting for the deliveries ${fmt((Date.now() - endMs) / 1000)} s after the load (limit ${o.latencyDrainMaxS} s, or a minute without one)`,
      );
    }
    // A moment more, so that a late second delivery of one would be counted.
    await new Promise((resolve) => setTimeout(resolve, 2 * pollMs + 500));
    await receiver.arrivals.update();
    const deliveries = deliveryFigures(acknowledged, receiver.arrivals.all, endMs);
    // What the registry committed: an acknowledged proof must be stored whatever became of its delivery.
    await registry.server.stop();
    const notStored = acknowledged.length - (await storedProofs(registry.databaseUrl, acknowledged));
    if (acks.refused > 0) warnings.push(`${rate}/s, EVENT_POLL_MS=${pollMs}: ${acks.refused} submissions answered other than 200`);
    return {
      rate,
      pollMs,
      load: figures,
      deliveries,
      drainMs: deliveries.lastArrivalMs === null ? 0 : Math.max(0, deliveries.lastArrivalMs - endMs),
      notStored,
    };
  } finally {
    await registry.close();
    await receiver.server.stop();
  }
}

export async function benchWebhooks(o: WebhookOptions): Promise<WebhookFigures> {
  const warnings: string[] = [];
  const rates: RateFigures[] = [];
  // Each part's figures as it ends too (stderr): a run takes long, and a part that fails must not take the others' figures with it.
  for (const database of o.databases) {
    rates.push(...(await benchWebhookRate(database, o, warnings)));
    console.error(`webhooks: ${JSON.stringify(rates.filter((r) => r.database === database))}`);
  }
  const latencies: LatencyFigures[] = [];
  for (const rate of o.rates) {
    for (const pollMs of o.pollsMs) {
      latencies.push(await benchWebhookLatency(rate, pollMs, o, warnings));
      console.error(`webhooks: ${JSON.stringify(latencies.at(-1))}`);
    }
  }
  return { rates, latencies, warnings };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const pct = (a: number, b: number) => `${fmt((100 * a) / b, 1)}%`;
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const cpu = (us: number | null) => (us === null ? 'n/a' : fmt(us));

export function printWebhooks(w: WebhookFigures, o: WebhookOptions): void {
  console.log(
    `\n| POST /v1/proofs, one endpoint subscribed to proof.accepted vs none, in turns (${o.rounds} rounds of ${fmt(o.sliceS, 1)} s each) | none req/s | subscribed req/s | **subscribed vs none** | rounds | ` +
      `deliveries/s in the slices / after them | slices drained within ${o.drainMaxS} s | server CPU µs/proof, none / subscribed / subscribed with its deliveries | receiver CPU µs/delivery | non-2xx+errors, none / subscribed |`,
  );
  console.log('| --- | ---: | ---: | ---: | --- | --- | ---: | --- | ---: | --- |');
  for (const r of w.rates) {
    const sliceS = sum(r.slices.map((s) => s.durationS));
    const waitedS = sum(r.slices.map((s) => s.waitedMs)) / 1000;
    const during = sum(r.slices.map((s) => s.deliveredBy)) / sliceS;
    const after = sum(r.slices.map((s) => s.deliveredAfter)) / waitedS;
    // The slices' CPU and the waits' over the proofs: what a proof costs once delivered, known when every slice drained.
    const drainCpuS = r.slices.every((s) => s.drainMs !== null && s.drainCpuS !== null) ? sum(r.slices.map((s) => s.drainCpuS!)) : null;
    const withDeliveries =
      r.subscribed.serverCpuUs === null || drainCpuS === null ? null : r.subscribed.serverCpuUs + (drainCpuS * 1e6) / sum(r.slices.map((s) => s.acknowledged));
    console.log(
      `| ${r.database}, ${r.connections} connections | ${fmt(r.none.requestsPerSec)} | ${fmt(r.subscribed.requestsPerSec)} | **${pct(r.subscribed.requestsPerSec, r.none.requestsPerSec)}** | ${r.roundRatios.map((x) => pct(x, 1)).join(', ')} | ` +
        `${fmt(during)} / ${fmt(after)} | ${r.slices.filter((s) => s.drainMs !== null).length} of ${r.slices.length} | ${cpu(r.none.serverCpuUs)} / ${cpu(r.subscribed.serverCpuUs)} / ${cpu(withDeliveries)} | ${cpu(r.receiverCpuUs)} | ${r.none.non2xx + r.none.errors} / ${r.subscribed.non2xx + r.subscribed.errors} |`,
    );
  }
  console.log(
    '\n| subscribed slice | proofs acknowledged | req/s | delivered by its end | behind at its end | drained after | delivered in the wait | left, dropped with the endpoint | registry CPU µs/delivery in the wait (event loop) | latency p50 / p99 / max ms | duplicates |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |');
  for (const r of w.rates) {
    for (const s of r.slices) {
      const l = s.latency;
      const waitS = s.waitedMs / 1000;
      const perDelivery = (cpuS: number | null) => (cpuS === null || s.deliveredAfter === 0 ? 'n/a' : fmt((cpuS * 1e6) / s.deliveredAfter));
      console.log(
        `| ${r.database}, ${r.connections} connections, round ${s.round + 1} | ${fmt(s.acknowledged)} | ${fmt(s.acknowledged / s.durationS)} | ${fmt(s.deliveredBy)} | ${fmt(s.behind)} | ` +
          `${s.drainMs === null ? `not within ${fmt(waitS, 1)} s` : `${fmt(s.drainMs / 1000, 2)} s`} | ${fmt(s.deliveredAfter)} (${fmt(s.deliveredAfter / waitS)}/s) | ${fmt(s.dropped)} | ` +
          `${perDelivery(s.drainCpuS)} (${perDelivery(s.drainEventLoopCpuS)}) | ${l === null ? 'n/a' : `${fmt(l.p50Ms)} / ${fmt(l.p99Ms)} / ${fmt(l.maxMs)}`} | ${s.duplicates} |`,
      );
    }
  }
  console.log(
    `\nAfter each subscribed slice the bench waits up to ${o.drainMaxS} s for its deliveries; what is left then is deleted with the endpoint, which is made anew, so that no delivery work lands on the other registry's slice. Latency over the delivered ones only.`,
  );
  console.log(
    `\n| webhook delivery, open loop for ${o.durationS} s, SQLite, one endpoint | acknowledged | received | missing | duplicates | latency p50 ms | p99 ms | max ms | behind at the load's end | drained after | submissions p50 / p99 ms | non-2xx+errors | acknowledged, not stored |`,
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |');
  for (const l of w.latencies) {
    const d = l.deliveries;
    const lat = d.latency;
    console.log(
      `| ${l.rate} proofs/s, EVENT_POLL_MS=${l.pollMs} | ${fmt(d.acknowledged)} | ${fmt(d.received)} | ${d.missing} | ${d.duplicates} | ${lat ? fmt(lat.p50Ms) : 'n/a'} | ${lat ? fmt(lat.p99Ms) : 'n/a'} | ${lat ? fmt(lat.maxMs) : 'n/a'} | ` +
        `${fmt(d.behind)} | ${d.missing > 0 ? 'not drained' : `${fmt(l.drainMs / 1000, 2)} s`} | ${fmt(l.load.p50Ms, 1)} / ${fmt(l.load.p99Ms, 1)} | ${l.load.non2xx + l.load.errors} | ${fmt(l.notStored)} |`,
    );
  }
  console.log("\nLatency: the receiver's arrival time less the event's `timestamp` (the proof's received_at), both this machine's clock, whole milliseconds.");
  for (const warning of w.warnings) console.log(`warning: ${warning}`);
  const failed = w.latencies.filter((l) => l.deliveries.missing > 0 || l.notStored > 0);
  if (failed.length > 0)
    throw new Error(
      `webhooks: acknowledged proofs never delivered, or not stored, at ${failed.map((l) => `${l.rate}/s, EVENT_POLL_MS=${l.pollMs}`).join('; ')}`,
    );
}

/** The options as `npm run bench` sets them, from the same environment variables. */
export function webhookOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): WebhookOptions {
  // An empty list leaves that part out (BENCH_WEBHOOK_DATABASES= runs the latencies alone).
  const list = (value: string) => value.split(',').filter((item) => item !== '');
  const durationS = Number(env.BENCH_DURATION_S ?? 10);
  const rounds = Number(env.BENCH_ROUNDS ?? 5);
  return {
    databases: list(env.BENCH_WEBHOOK_DATABASES ?? 'sqlite,postgres') as BenchDatabase[],
    connectionCounts: list(env.BENCH_CONNECTIONS ?? '32,64').map(Number),
    rounds,
    sliceS: durationS / rounds,
    warmUpS: 2,
    drainMaxS: Number(env.BENCH_WEBHOOK_DRAIN_MAX_S ?? 30),
    latencyDrainMaxS: Number(env.BENCH_WEBHOOK_LATENCY_DRAIN_MAX_S ?? 1_800),
    durationS,
    rates: list(env.BENCH_WEBHOOK_RATES ?? '500,50').map(Number),
    pollsMs: list(env.BENCH_WEBHOOK_POLLS ?? '200,50').map(Number),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const o = webhookOptionsFromEnv();
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; ${o.durationS} s per run, maximum rates at ${o.connectionCounts.join(' and ')} connections; ${new Date().toISOString()}`,
  );
  const figures = await benchWebhooks(o);
  printWebhooks(figures, o);
}
