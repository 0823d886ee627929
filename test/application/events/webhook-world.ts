import { MemoryDeliveryQueue } from '../../../src/adapters/memory/memory-delivery-queue.js';
import { MemoryEventLog } from '../../../src/adapters/memory/memory-event-log.js';
import { MemoryWebhookStore } from '../../../src/adapters/memory/memory-webhook-store.js';
import { signatureHeader } from '../../../src/adapters/webhooks/standard-webhook-signer.js';
import { DeliverWebhooks, type AttemptReport, type DeliverySettings } from '../../../src/application/events/deliver-webhooks.js';
import { FanOutEvents } from '../../../src/application/events/fan-out-events.js';
import { EventRenderer } from '../../../src/application/events/render-event.js';
import type { WebhookRequest, WebhookResponse, WebhookTransport } from '../../../src/application/ports/webhook-transport.js';

/** A transport that answers as the test says, one request at a time when it wants to hold them. */
export class ScriptedTransport implements WebhookTransport {
  readonly requests: WebhookRequest[] = [];
  answer: (request: WebhookRequest) => Partial<WebhookResponse> | Promise<Partial<WebhookResponse>> = () => ({ statusCode: 200 });

  async post(request: WebhookRequest): Promise<WebhookResponse> {
    this.requests.push(request);
    const given = await this.answer(request);
    const statusCode = given.statusCode ?? null;
    return {
      statusCode,
      latencyMs: 3,
      error: statusCode !== null && statusCode >= 200 && statusCode < 300 ? null : (given.error ?? `answered ${statusCode}`),
      bodyExcerpt: given.bodyExcerpt ?? '',
    };
  }

  async close(): Promise<void> {}
}

/** Starts at the real time, so a receiver's timestamp tolerance (five minutes) accepts what it signs. */
export class TestClock {
  constructor(public now = Date.now()) {}
  nowMs(): number {
    return this.now;
  }
}

/** The memory stores, the fan-out and the sender, wired as the events slice wires the real ones. */
export function webhookWorld(settings: Partial<DeliverySettings> = {}) {
  const clock = new TestClock();
  const events = new MemoryEventLog();
  const endpoints = new MemoryWebhookStore();
  const queue = new MemoryDeliveryQueue(endpoints, events);
  const transport = new ScriptedTransport();
  const reports: AttemptReport[] = [];
  const renderer = new EventRenderer({ inclusion: async () => null });
  const deliver = new DeliverWebhooks(
    queue,
    endpoints,
    transport,
    { header: signatureHeader },
    renderer,
    clock,
    () => 0.5,
    { concurrency: 8, perEndpoint: 4, lockMs: 30_000, disableAfterMs: 5 * 86_400_000, ...settings },
    (r) => reports.push(r),
  );
  const fanOut = new FanOutEvents(events, endpoints, queue, clock);
  /** Fan-out, send what is due, wait for it, record it. */
  const round = async () => {
    await fanOut.execute();
    await deliver.tick();
    await deliver.drain();
  };
  return { clock, events, endpoints, queue, transport, reports, deliver, fanOut, round };
}
