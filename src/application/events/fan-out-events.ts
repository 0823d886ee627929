import { endpointTakes, type WebhookEndpoint } from '../../domain/events/webhook.js';
import type { Clock } from '../ports/clock.js';
import type { DeliveryQueue } from '../ports/delivery-queue.js';
import type { EventLog } from '../ports/event-log.js';
import type { WebhookStore } from '../ports/webhook-store.js';

/** The fan-out's place in the events. */
export const FAN_OUT_CURSOR = 'webhooks';

/**
 * Turns events into deliveries: every event after the fan-out's cursor, for every enabled
 * endpoint of its wallet that takes it and existed when it happened. The deliveries and the
 * cursor's move are one transaction, so an event is queued once for each endpoint, whatever
 * crashes. Runs on one instance at a time (a lease); another that raced it changes nothing.
 */
export class FanOutEvents {
  constructor(
    private readonly events: EventLog,
    private readonly endpoints: WebhookStore,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
    private readonly pageSize = 1000,
  ) {}

  /** Queues what has happened since the last run; how many deliveries it queued. */
  async execute(): Promise<number> {
    let queued = 0;
    for (;;) {
      const from = await this.queue.cursor(FAN_OUT_CURSOR);
      const enabled = await this.endpoints.enabledEndpoints();
      if (enabled.length === 0) {
        // Nobody listens: the cursor moves past what happened, which no endpoint will ever want.
        const last = await this.events.lastId();
        if (last > from) await this.queue.enqueue([], { name: FAN_OUT_CURSOR, from, to: last }, this.clock.nowMs());
        return queued;
      }
      const byWallet = new Map<string, WebhookEndpoint[]>();
      for (const endpoint of enabled) byWallet.set(endpoint.wallet, [...(byWallet.get(endpoint.wallet) ?? []), endpoint]);
      const page = await this.events.allEvents(from, this.pageSize);
      if (page.length === 0) return queued;
      const deliveries = page.flatMap((event) =>
        (byWallet.get(event.wallet) ?? [])
          .filter((endpoint) => event.atMs >= endpoint.createdAtMs && endpointTakes(endpoint, event))
          .map((endpoint) => ({ endpointId: endpoint.endpointId, event })),
      );
      if (!(await this.queue.enqueue(deliveries, { name: FAN_OUT_CURSOR, from, to: page[page.length - 1]!.id }, this.clock.nowMs()))) return queued;
      queued += deliveries.length;
      if (page.length < this.pageSize) return queued;
    }
  }
}
