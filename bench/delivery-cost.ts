import { pathToFileURL } from 'node:url';
import { fleetProofBodies } from './fleet-proofs.js';
import { pacedLoad } from './paced-load.js';
import { startBenchRegistry, startReceiver, subscribe, type BenchDatabase } from './webhook-setup.js';

/**
 * What one webhook delivery costs the registry's CPU: the same paced load (slow enough that
 * deliveries keep up) on a registry with one endpoint subscribed to `proof.accepted` and on
 * one with none; the difference in the server's CPU, from the first submission until every
 * delivery has arrived, divided by the proofs. `BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof"`
 * profiles both servers.
 *
 *   npx tsx bench/delivery-cost.ts                       # SQLite and PostgreSQL, 3,000 proofs at 200/s
 *   BENCH_DELIVERY_DATABASES=postgres BENCH_DELIVERY_PROOFS=6000 npx tsx bench/delivery-cost.ts
 */
export interface DeliveryCost {
  readonly database: BenchDatabase;
  readonly proofs: number;
  /** Server CPU µs a proof, with no endpoint and with one. */
  readonly noneUs: number;
  readonly subscribedUs: number;
  /** Their difference: one delivery's cost, fan-out to record. */
  readonly deliveryUs: number;
  /** The receiver's CPU µs a delivery (it runs on the same machine). */
  readonly receiverUs: number;
  /** Deliveries still to arrive when the load ended, and how fast they then arrived. */
  readonly behind: number;
  readonly drainPerSec: number;
}

export async function measureDeliveryCost(database: BenchDatabase, proofs: number, rate: number): Promise<DeliveryCost> {
  const cpuPerProof: number[] = [];
  let receiverUs = 0;
  let behind = 0;
  let drainPerSec = 0;
  for (const subscribed of [false, true]) {
    const registry = await startBenchRegistry(database, `delivery_cost_${subscribed ? 'on' : 'off'}`);
    const receiver = await startReceiver();
    try {
      if (subscribed) await subscribe(registry, receiver.server.url);
      const bodies = fleetProofBodies(proofs, `delivery_cost_${subscribed ? 'on' : 'off'}`);
      const acknowledged: string[] = [];
      const cpu0 = registry.server.cpuSeconds()!;
      const receiver0 = receiver.server.cpuSeconds()!;
      await pacedLoad({
        url: registry.server.url,
        path: '/v1/proofs',
        headers: registry.headers,
        bodies,
        connections: 32,
        durationS: proofs / rate,
        rate,
        onResponse: (status, body) => {
          if (status === 200) acknowledged.push(String((JSON.parse(body) as { proof_id: string }).proof_id));
        },
      });
      if (subscribed) {
        const loadEndMs = Date.now();
        await receiver.arrivals.update();
        const arrived = new Set(receiver.arrivals.all.map((a) => a[1]));
        behind = acknowledged.filter((id) => !arrived.has(id)).length;
        if (!(await receiver.arrivals.waitFor(acknowledged, 300_000))) throw new Error('deliveries did not all arrive within 5 minutes');
        const lastMs = Math.max(...receiver.arrivals.all.map((a) => a[2]));
        drainPerSec = behind === 0 ? 0 : behind / Math.max(0.001, (lastMs - loadEndMs) / 1000);
      }
      // The idle registry's own timers (polls) go on: wait as long for the unsubscribed one, so both count them.
      if (!subscribed) await new Promise((resolve) => setTimeout(resolve, 1_000));
      cpuPerProof.push(((registry.server.cpuSeconds()! - cpu0) * 1e6) / acknowledged.length);
      if (subscribed) receiverUs = ((receiver.server.cpuSeconds()! - receiver0) * 1e6) / acknowledged.length;
    } finally {
      await receiver.server.stop();
      await registry.close();
    }
  }
  const [noneUs, subscribedUs] = cpuPerProof as [number, number];
  return { database, proofs, noneUs, subscribedUs, deliveryUs: subscribedUs - noneUs, receiverUs, behind, drainPerSec };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const proofs = Number(process.env.BENCH_DELIVERY_PROOFS ?? 3_000);
  const rate = Number(process.env.BENCH_DELIVERY_RATE ?? 200);
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(
    `| ${fmt(proofs)} proofs at ${rate}/s | server CPU µs a proof, no endpoint | with one endpoint | one delivery | receiver CPU µs a delivery | behind as the load ended | then delivered a second |`,
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const database of (process.env.BENCH_DELIVERY_DATABASES ?? 'sqlite,postgres').split(',') as BenchDatabase[]) {
    const c = await measureDeliveryCost(database, proofs, rate);
    console.log(
      `| ${database} | ${fmt(c.noneUs)} | ${fmt(c.subscribedUs)} | ${fmt(c.deliveryUs)} | ${fmt(c.receiverUs)} | ${fmt(c.behind)} | ${c.behind === 0 ? '—' : fmt(c.drainPerSec)} |`,
    );
  }
}
