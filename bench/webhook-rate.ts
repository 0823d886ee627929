import { threadCpuSeconds } from './child-server.js';
import { fleetProofBodies } from './fleet-proofs.js';
import { interleaved, type Contender, type CostedFigures } from './interleaved.js';
import { deliveryFigures, type Latency } from './webhook-deliveries.js';
import {
  Acknowledgements,
  DELIVERY_WARM_UP_RATE,
  quietMachine,
  startBenchRegistry,
  startReceiver,
  subscribe,
  unsubscribe,
  warmUp,
  type BenchDatabase,
  type BenchRegistry,
  type WarmUp,
} from './webhook-setup.js';

/** One slice of the subscribed registry, and the deliveries of what it acknowledged in it. */
export interface RateSlice {
  readonly round: number;
  readonly durationS: number;
  readonly acknowledged: number;
  /** Of those, delivered before the slice ended. */
  readonly deliveredBy: number;
  /** Acknowledged and not yet delivered when the slice ended. */
  readonly behind: number;
  /** From the slice's end to the arrival of the last proof it acknowledged (0 when none was behind); null when they had not all arrived within the wait. */
  readonly drainMs: number | null;
  /** How long the bench waited for them: until all had arrived, or drainMaxS. */
  readonly waitedMs: number;
  /** Of those behind, delivered during the wait. */
  readonly deliveredAfter: number;
  /** Acknowledged and still not delivered when the wait ended: dropped with their endpoint, which was made anew for the next slice. */
  readonly dropped: number;
  /** CPU seconds of the registry from the slice's end to the wait's end: all its threads, and its event loop alone. */
  readonly drainCpuS: number | null;
  readonly drainEventLoopCpuS: number | null;
  readonly duplicates: number;
  /** From each proof's event time (its received_at) to its arrival at the receiver. */
  readonly latency: Latency | null;
}

/** The submission rate at one connection count with one endpoint subscribed and with none, in turns. */
export interface RateFigures {
  readonly database: BenchDatabase;
  readonly connections: number;
  readonly none: CostedFigures;
  readonly subscribed: CostedFigures;
  /** Each round's subscribed rate as a share of the unsubscribed one's. */
  readonly roundRatios: readonly number[];
  readonly slices: readonly RateSlice[];
  /** The receiver's CPU per delivery, µs. */
  readonly receiverCpuUs: number | null;
}

export interface RateOptions {
  readonly rounds: number;
  readonly sliceS: number;
  readonly connectionCounts: readonly number[];
  readonly warmUpS: number;
  /** The longest wait for one slice's deliveries (the warm-up's too). */
  readonly drainMaxS: number;
}

/** Bodies a registry could take per second of slices, with room to spare: a body sent twice would be a duplicate, which announces nothing. */
const BODIES_PER_S = 5_000;

/**
 * Two registries on `database`, each on a database of its own: one whose wallet has an enabled
 * endpoint for `proof.accepted` at a receiver in its own process, one with none. Both warmed
 * up, then at their maximum rate in turns (interleaved.ts) at each connection count. After
 * each of the subscribed registry's slices the bench waits, up to `drainMaxS`, until
 * everything it acknowledged has arrived: how far behind the deliveries were, and how long
 * they took to catch up. Work left after the wait would land on the other registry's slice,
 * so the endpoint is then deleted with its backlog and made anew: every subscribed slice
 * starts with an empty queue.
 */
export async function benchWebhookRate(database: BenchDatabase, o: RateOptions, warnings: string[]): Promise<RateFigures[]> {
  const receiver = await startReceiver();
  const registries: BenchRegistry[] = [];
  try {
    const none = await startBenchRegistry(database, 'wh_none');
    registries.push(none);
    const subscribed = await startBenchRegistry(database, 'wh_sub');
    registries.push(subscribed);

    // In created_at order: warm-up, deliveries' warm-up, then the slices.
    const w: WarmUp = {
      connections: o.connectionCounts[0]!,
      warmUpS: o.warmUpS,
      closed: fleetProofBodies(o.warmUpS * BODIES_PER_S, 'bench-wh-warm-up'),
      paced: fleetProofBodies(2 * DELIVERY_WARM_UP_RATE, 'bench-wh-warm-up-paced'),
      drainMaxS: o.drainMaxS,
    };
    const bodies = fleetProofBodies(Math.ceil(o.rounds * o.sliceS * BODIES_PER_S) * o.connectionCounts.length, 'bench-wh-max');
    await warmUp(none, w);
    let endpoint = (await warmUp(subscribed, w, receiver))!;
    await quietMachine(`the webhook rates on ${database}`, warnings);

    const acks = [new Acknowledgements(), new Acknowledgements()] as const;
    const receiverCpu0 = receiver.server.cpuSeconds();
    const delivered0 = receiver.arrivals.all.length;
    const cursors = [{ next: 0 }, { next: 0 }];
    const results: RateFigures[] = [];
    for (const connections of o.connectionCounts) {
      if (results.length > 0) await quietMachine(`the webhook rates at ${connections} connections`, warnings);
      const slices: RateSlice[] = [];
      const afterSlice = async ({ round, endMs, durationS }: { round: number; endMs: number; durationS: number }) => {
        const acknowledged = acks[1].take();
        const [cpu0, loop0] = [subscribed.server.cpuSeconds(), threadCpuSeconds(subscribed.server.pid)];
        const drained = await receiver.arrivals.waitFor(acknowledged, o.drainMaxS * 1000);
        const waitedMs = Date.now() - endMs;
        const [cpu1, loop1] = [subscribed.server.cpuSeconds(), threadCpuSeconds(subscribed.server.pid)];
        const f = deliveryFigures(acknowledged, receiver.arrivals.all, endMs);
        slices.push({
          round,
          durationS,
          acknowledged: f.acknowledged,
          deliveredBy: f.arrivedBy,
          behind: f.behind,
          drainMs: !drained ? null : f.lastArrivalMs === null ? 0 : Math.max(0, f.lastArrivalMs - endMs),
          waitedMs,
          deliveredAfter: f.received - f.arrivedBy,
          dropped: f.missing,
          drainCpuS: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0,
          drainEventLoopCpuS: loop0 === null || loop1 === null ? null : loop1 - loop0,
          duplicates: f.duplicates,
          latency: f.latency,
        });
        if (!drained) {
          await unsubscribe(subscribed, endpoint.endpointId);
          endpoint = await subscribe(subscribed, receiver.server.url);
        }
      };
      const contenders: [Contender, Contender] = [
        {
          server: none.server,
          path: '/v1/proofs',
          headers: none.headers,
          bodies,
          cursor: cursors[0]!,
          onResponse: acks[0].onResponse,
          afterSlice: async () => void acks[0].take(),
        },
        { server: subscribed.server, path: '/v1/proofs', headers: subscribed.headers, bodies, cursor: cursors[1]!, onResponse: acks[1].onResponse, afterSlice },
      ];
      const turns = await interleaved(contenders, { rounds: o.rounds, sliceS: o.sliceS, connections });
      results.push({
        database,
        connections,
        none: turns.figures[0]!,
        subscribed: turns.figures[1]!,
        roundRatios: turns.roundRatios,
        slices,
        receiverCpuUs: null,
      });
    }
    // A refused request costs next to nothing: a rate with any in it is not a submission rate, and says so.
    for (const [i, a] of acks.entries()) {
      if (a.refused > 0)
        warnings.push(`${database}: the ${i === 0 ? 'unsubscribed' : 'subscribed'} registry answered ${a.refused} submissions with something other than 200`);
    }
    const receiverCpu1 = receiver.server.cpuSeconds();
    const deliveries = receiver.arrivals.all.length - delivered0;
    const receiverCpuUs = receiverCpu0 === null || receiverCpu1 === null ? null : ((receiverCpu1 - receiverCpu0) * 1e6) / Math.max(1, deliveries);
    return results.map((r) => ({ ...r, receiverCpuUs }));
  } finally {
    for (const registry of registries) await registry.close();
    await receiver.server.stop();
  }
}
