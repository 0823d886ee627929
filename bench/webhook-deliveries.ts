/** One delivery as the receiver (servers/webhook-receiver.ts) kept it: its `webhook-id`, the proof, when it arrived and the event's time, both ms since the epoch. */
export type Arrival = readonly [webhookId: string, proofId: string, arrivedMs: number, eventMs: number];

export interface Latency {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** How the deliveries of some acknowledged proofs went. */
export interface DeliveryFigures {
  readonly acknowledged: number;
  /** Acknowledged proofs that arrived at least once. */
  readonly received: number;
  /** Arrivals of an acknowledged proof after its first. */
  readonly duplicates: number;
  /** Acknowledged proofs that never arrived. */
  readonly missing: number;
  /** Acknowledged proofs not yet arrived at the time asked about (the end of the load). */
  readonly behind: number;
  /** When the last acknowledged proof arrived; null when none did. */
  readonly lastArrivalMs: number | null;
  /** Arrivals of the acknowledged proofs up to the time asked about. */
  readonly arrivedBy: number;
  /** From each acknowledged proof's event time to its first arrival; null when none arrived. */
  readonly latency: Latency | null;
}

/**
 * The deliveries of `acknowledged` (proof ids answered 200) among `arrivals`: what arrived,
 * twice, or not at all, how many were still on their way at `atMs`, and each one's latency,
 * its arrival less its event's time. Arrivals of other proofs are left out.
 */
export function deliveryFigures(acknowledged: readonly string[], arrivals: readonly Arrival[], atMs: number): DeliveryFigures {
  const wanted = new Set(acknowledged);
  const first = new Map<string, Arrival>();
  let duplicates = 0;
  for (const arrival of arrivals) {
    const proofId = arrival[1];
    if (!wanted.has(proofId)) continue;
    if (first.has(proofId)) duplicates++;
    else first.set(proofId, arrival);
  }
  let lastArrivalMs: number | null = null;
  let arrivedBy = 0;
  const latencies: number[] = [];
  for (const [, , arrivedMs, eventMs] of first.values()) {
    lastArrivalMs = lastArrivalMs === null ? arrivedMs : Math.max(lastArrivalMs, arrivedMs);
    if (arrivedMs <= atMs) arrivedBy++;
    latencies.push(arrivedMs - eventMs);
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return {
    acknowledged: wanted.size,
    received: first.size,
    duplicates,
    missing: wanted.size - first.size,
    behind: wanted.size - arrivedBy,
    lastArrivalMs,
    arrivedBy,
    latency: latencies.length === 0 ? null : { p50Ms: at(0.5), p99Ms: at(0.99), maxMs: latencies[latencies.length - 1]! },
  };
}

/** The receiver's arrivals, read as they come: each is fetched once. */
export class ReceiverArrivals {
  readonly all: Arrival[] = [];
  private readonly proofs = new Set<string>();

  constructor(private readonly receiverUrl: string) {}

  async update(): Promise<void> {
    const res = await fetch(`${this.receiverUrl}/arrivals?from=${this.all.length}`);
    for (const arrival of (await res.json()) as Arrival[]) {
      this.all.push(arrival);
      this.proofs.add(arrival[1]);
    }
  }

  /**
   * Waits until every proof of `proofIds` has arrived at least once, reading the receiver
   * every `everyMs`; false when `maxMs` runs out first, or when none of them has arrived for
   * `stallMs` (the deliveries have stopped, not slowed). When the last one arrived is read
   * from the arrivals, so the reading's pace does not add to it.
   */
  async waitFor(proofIds: readonly string[], maxMs: number, stallMs = 60_000, everyMs = 25): Promise<boolean> {
    const deadline = Date.now() + maxMs;
    let pending = proofIds;
    let progressAt = Date.now();
    for (;;) {
      await this.update();
      const left = pending.filter((id) => !this.proofs.has(id));
      if (left.length < pending.length) progressAt = Date.now();
      pending = left;
      if (pending.length === 0) return true;
      if (Date.now() >= deadline || Date.now() - progressAt >= stallMs) return false;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}
