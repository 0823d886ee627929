import { machineTimes, settle, type ChildServer } from './child-server.js';
import { load, type LoadFigures, type LoadOptions } from './http-load.js';

/** A server under load, with what to send it: its bodies go on from slice to slice. */
export interface Contender extends Pick<LoadOptions, 'path' | 'headers' | 'bodies' | 'reuseBodies' | 'onResponse'> {
  readonly server: ChildServer;
  /** Where in `bodies` to go on from, shared by several runs that must not send a body twice (default: from the start). */
  readonly cursor?: { next: number };
  /**
   * Awaited after each of its slices, before the next slice waits for a quiet machine: work the
   * server still owes for its slice (deliveries it queued, say) is finished here, not charged
   * to the other server's slice.
   */
  readonly afterSlice?: (slice: { readonly round: number; readonly endMs: number; readonly durationS: number }) => Promise<void>;
}

/** A load's figures with what it cost: CPU per request of the server process and of the load generator, and how busy the machine was. */
export interface CostedFigures extends LoadFigures {
  readonly serverCpuUs: number | null;
  readonly loadCpuUs: number;
  readonly machineBusy: number | null;
}

export interface InterleavedFigures {
  /** Each contender's figures over all its slices, in the order given. */
  readonly figures: readonly CostedFigures[];
  /** Each round's rate of the second contender as a share of the first's. */
  readonly roundRatios: readonly number[];
  /** Each round's rate of every contender, in the order given. */
  readonly roundRates: readonly (readonly number[])[];
}

export interface InterleaveOptions {
  readonly rounds: number;
  readonly sliceS: number;
  readonly connections: number;
  /** Longest wait for a quiet machine before each slice (default 3000 ms). */
  readonly settleMaxMs?: number;
}

/** Sums over a contender's slices. */
class Tally {
  readonly latencies: number[] = [];
  readonly cursor = { next: 0 };
  requests = 0;
  seconds = 0;
  non2xx = 0;
  errors = 0;
  serverCpuS: number | null = 0;
  loadCpuS = 0;
  machineBusy = 0;
  machineTotal = 0;

  figures(): CostedFigures {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const at = (q: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN) * 10) / 10;
    const perRequestUs = (seconds: number) => (seconds * 1e6) / Math.max(1, this.requests);
    return {
      requestsPerSec: this.requests / this.seconds,
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      non2xx: this.non2xx,
      errors: this.errors,
      total: this.requests,
      serverCpuUs: this.serverCpuS === null ? null : perRequestUs(this.serverCpuS),
      loadCpuUs: perRequestUs(this.loadCpuS),
      machineBusy: this.machineTotal > 0 ? this.machineBusy / this.machineTotal : null,
    };
  }
}

/**
 * Servers at their maximum rate in turns, slice by slice: A, B, C, then C, B, A, and so on,
 * each server idle while another runs. This machine's speed drifts by a quarter within minutes,
 * so a ratio of two runs minutes apart measures the drift as much as the servers; in turns,
 * both see the same machine. Each round's own ratio shows how far the drift still reaches.
 * Every slice starts once the machine is quiet (the last one's aftermath, such as a WAL
 * checkpoint, must not fall on the other server).
 */
export async function interleaved(contenders: readonly [Contender, Contender, ...Contender[]], o: InterleaveOptions): Promise<InterleavedFigures> {
  const tallies = contenders.map(() => new Tally());
  const roundRatios: number[] = [];
  const roundRates: number[][] = [];
  for (let round = 0; round < o.rounds; round++) {
    const rates: number[] = [];
    const forwards = contenders.map((_, k) => k);
    const order = round % 2 === 0 ? forwards : forwards.reverse();
    for (const k of order) {
      const contender = contenders[k]!;
      const tally = tallies[k]!;
      await settle(0.15, o.settleMaxMs ?? 3_000);
      const server0 = contender.server.cpuSeconds();
      const machine0 = machineTimes();
      const own0 = process.cpuUsage();
      const slice = await load({
        url: contender.server.url,
        path: contender.path,
        headers: contender.headers,
        bodies: contender.bodies,
        reuseBodies: contender.reuseBodies ?? false,
        connections: o.connections,
        durationS: o.sliceS,
        cursor: contender.cursor ?? tally.cursor,
        onLatency: (ms) => tally.latencies.push(ms),
        ...(contender.onResponse && { onResponse: contender.onResponse }),
      });
      const endMs = Date.now();
      const own = process.cpuUsage(own0);
      const server1 = contender.server.cpuSeconds();
      const machine1 = machineTimes();
      tally.requests += slice.total;
      tally.seconds += slice.durationS;
      tally.non2xx += slice.non2xx;
      tally.errors += slice.errors;
      tally.serverCpuS = tally.serverCpuS !== null && server0 !== null && server1 !== null ? tally.serverCpuS + server1 - server0 : null;
      tally.loadCpuS += (own.user + own.system) / 1e6;
      if (machine0 && machine1) {
        tally.machineBusy += machine1.busy - machine0.busy;
        tally.machineTotal += machine1.total - machine0.total;
      }
      rates[k] = slice.total / slice.durationS;
      await contender.afterSlice?.({ round, endMs, durationS: slice.durationS });
    }
    roundRatios.push(rates[1]! / rates[0]!);
    roundRates.push(rates);
  }
  return { figures: tallies.map((t) => t.figures()), roundRatios, roundRates };
}
