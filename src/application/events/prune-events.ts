import type { Clock } from '../ports/clock.js';
import type { DeliveryQueue } from '../ports/delivery-queue.js';
import type { EventLog } from '../ports/event-log.js';

const DAY_MS = 86_400_000;

/**
 * Keeps events and the delivery log for EVENT_RETENTION_DAYS: older ones are deleted a slice
 * at a time, so no single statement holds the database for long.
 */
export class PruneEvents {
  constructor(
    private readonly events: EventLog,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
    private readonly retentionDays: number,
    private readonly slice = 5000,
  ) {}

  /** How many events and deliveries it deleted. */
  async execute(): Promise<{ events: number; deliveries: number }> {
    const before = this.clock.nowMs() - this.retentionDays * DAY_MS;
    let events = 0;
    let deliveries = 0;
    for (let n = this.slice; n === this.slice; events += n) n = await this.events.prune(before, this.slice);
    for (let n = this.slice; n === this.slice; deliveries += n) n = await this.queue.prune(before, this.slice);
    return { events, deliveries };
  }
}
