import type { AttemptOutcome, Delivery, DeliveryAttempt, DeliveryQueue } from '../../src/application/ports/delivery-queue.js';
import type { EventLog } from '../../src/application/ports/event-log.js';
import type { WebhookStore } from '../../src/application/ports/webhook-store.js';
import type { StoredEvent } from '../../src/domain/events/event.js';
import { MAX_ENDPOINTS_PER_WALLET, type WebhookEndpoint } from '../../src/domain/events/webhook.js';
import { anEvent } from './event-log.contract.js';
import { anEndpoint } from './webhook-store.contract.js';

// What the DeliveryQueue contracts (delivery-queue-*.contract.ts) share: the fixture, times, outcomes, set-up steps.

/** A queue with the endpoints and events it reads, all empty. */
export interface QueueFixture {
  readonly events: EventLog;
  readonly endpoints: WebhookStore;
  readonly queue: DeliveryQueue;
}

export const CURSOR = 'webhooks';
export const T0 = 1_000;
export const LOCK = 30_000;
export const FAR = 9_000_000_000_000;

export type Target = { readonly deliveryId: number; readonly endpointId: string };

export const attempt = (n: number, atMs: number, over: Partial<DeliveryAttempt> = {}): DeliveryAttempt => ({
  attempt: n,
  atMs,
  statusCode: 500,
  latencyMs: 20,
  error: 'answered 500',
  responseExcerpt: 'oops',
  trigger: 'scheduled',
  ...over,
});
export const failed = (d: Target, n: number, atMs: number, nextAttemptAtMs: number | null, over: Partial<DeliveryAttempt> = {}): AttemptOutcome => ({
  deliveryId: d.deliveryId,
  endpointId: d.endpointId,
  attempt: attempt(n, atMs, over),
  state: nextAttemptAtMs === null ? 'failed' : 'pending',
  nextAttemptAtMs,
  succeeded: false,
});
export const succeeded = (d: Target, n: number, atMs: number, trigger: DeliveryAttempt['trigger'] = 'scheduled'): AttemptOutcome => ({
  deliveryId: d.deliveryId,
  endpointId: d.endpointId,
  attempt: attempt(n, atMs, { statusCode: 200, error: null, responseExcerpt: 'ok', trigger }),
  state: 'succeeded',
  nextAttemptAtMs: null,
  succeeded: true,
});

export async function endpoints(fx: QueueFixture, ...wallets: string[]): Promise<WebhookEndpoint[]> {
  const made = wallets.map((w) => anEndpoint(w));
  for (const e of made) await fx.endpoints.create(e, MAX_ENDPOINTS_PER_WALLET);
  return made;
}
/** Appends `n` events and enqueues each for every endpoint given, moving the cursor past them. */
export async function fanOut(fx: QueueFixture, to: readonly WebhookEndpoint[], n: number, nowMs = T0): Promise<readonly StoredEvent[]> {
  const from = await fx.queue.cursor(CURSOR);
  await fx.events.append(Array.from({ length: n }, () => anEvent(to[0]!.wallet)));
  const events = await fx.events.allEvents(from, 1_000);
  const pairs = to.flatMap((e) => events.map((event) => ({ endpointId: e.endpointId, event })));
  if (!(await fx.queue.enqueue(pairs, { name: CURSOR, from, to: events[events.length - 1]!.id }, nowMs))) throw new Error('enqueue refused');
  return events;
}
/** The endpoint's deliveries, oldest first. */
export async function deliveries(fx: QueueFixture, e: WebhookEndpoint): Promise<Delivery[]> {
  return [...(await fx.queue.list(e.wallet, e.endpointId, { limit: 1_000 }))!.items].reverse();
}
export const claimedIds = async (fx: QueueFixture, nowMs: number, limit = 100, perEndpoint = 100) =>
  (await fx.queue.claim(nowMs, LOCK, limit, perEndpoint)).map((c) => c.delivery.deliveryId);
