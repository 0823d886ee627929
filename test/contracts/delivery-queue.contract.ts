import test from 'ava';
import type { AttemptOutcome, Delivery, DeliveryAttempt, DeliveryQueue } from '../../src/application/ports/delivery-queue.js';
import type { EventLog } from '../../src/application/ports/event-log.js';
import type { WebhookStore } from '../../src/application/ports/webhook-store.js';
import type { StoredEvent } from '../../src/domain/events/event.js';
import { MAX_ENDPOINTS_PER_WALLET, type WebhookEndpoint } from '../../src/domain/events/webhook.js';
import type { DeclareTest } from '../support/databases.js';
import { WALLET_A, WALLET_B } from '../support/mothers.js';
import { anEvent } from './event-log.contract.js';
import { anEndpoint } from './webhook-store.contract.js';

/** A queue with the endpoints and events it reads, all empty. */
export interface QueueFixture {
  readonly events: EventLog;
  readonly endpoints: WebhookStore;
  readonly queue: DeliveryQueue;
}

const CURSOR = 'webhooks';
const T0 = 1_000;
const LOCK = 30_000;
const FAR = 9_000_000_000_000;

type Target = { readonly deliveryId: number; readonly endpointId: string };

const attempt = (n: number, atMs: number, over: Partial<DeliveryAttempt> = {}): DeliveryAttempt => ({
  attempt: n,
  atMs,
  statusCode: 500,
  latencyMs: 20,
  error: 'answered 500',
  responseExcerpt: 'oops',
  trigger: 'scheduled',
  ...over,
});
const failed = (d: Target, n: number, atMs: number, nextAttemptAtMs: number | null, over: Partial<DeliveryAttempt> = {}): AttemptOutcome => ({
  deliveryId: d.deliveryId,
  endpointId: d.endpointId,
  attempt: attempt(n, atMs, over),
  state: nextAttemptAtMs === null ? 'failed' : 'pending',
  nextAttemptAtMs,
  succeeded: false,
});
const succeeded = (d: Target, n: number, atMs: number, trigger: DeliveryAttempt['trigger'] = 'scheduled'): AttemptOutcome => ({
  deliveryId: d.deliveryId,
  endpointId: d.endpointId,
  attempt: attempt(n, atMs, { statusCode: 200, error: null, responseExcerpt: 'ok', trigger }),
  state: 'succeeded',
  nextAttemptAtMs: null,
  succeeded: true,
});

/** The DeliveryQueue contract; `make` returns an empty queue over an empty store and log. */
export function deliveryQueueContract(name: string, make: () => Promise<QueueFixture>, testFn: DeclareTest = test): void {
  async function endpoints(fx: QueueFixture, ...wallets: string[]): Promise<WebhookEndpoint[]> {
    const made = wallets.map((w) => anEndpoint(w));
    for (const e of made) await fx.endpoints.create(e, MAX_ENDPOINTS_PER_WALLET);
    return made;
  }
  /** Appends `n` events and enqueues each for every endpoint given, moving the cursor past them. */
  async function fanOut(fx: QueueFixture, to: readonly WebhookEndpoint[], n: number, nowMs = T0): Promise<readonly StoredEvent[]> {
    const from = await fx.queue.cursor(CURSOR);
    await fx.events.append(Array.from({ length: n }, () => anEvent(to[0]!.wallet)));
    const events = await fx.events.allEvents(from, 1_000);
    const pairs = to.flatMap((e) => events.map((event) => ({ endpointId: e.endpointId, event })));
    if (!(await fx.queue.enqueue(pairs, { name: CURSOR, from, to: events[events.length - 1]!.id }, nowMs))) throw new Error('enqueue refused');
    return events;
  }
  /** The endpoint's deliveries, oldest first. */
  async function deliveries(fx: QueueFixture, e: WebhookEndpoint): Promise<Delivery[]> {
    return [...(await fx.queue.list(e.wallet, e.endpointId, { limit: 1_000 }))!.items].reverse();
  }
  const claimedIds = async (fx: QueueFixture, nowMs: number, limit = 100, perEndpoint = 100) =>
    (await fx.queue.claim(nowMs, LOCK, limit, perEndpoint)).map((c) => c.delivery.deliveryId);

  testFn(`${name}: enqueue moves the cursor from where it was read and adds each delivery once`, async (t) => {
    const fx = await make();
    t.is(await fx.queue.cursor(CURSOR), 0);
    const [e] = await endpoints(fx, WALLET_A);
    const events = await fanOut(fx, [e!], 2);
    t.is(await fx.queue.cursor(CURSOR), events[1]!.id);
    t.is(await fx.queue.cursor('another-job'), 0);
    const page = (await fx.queue.list(WALLET_A, e!.endpointId, { limit: 10 }))!;
    t.deepEqual(
      page.items.map((d) => d.eventId),
      [events[1]!.id, events[0]!.id],
    );
    t.like(page.items[0], {
      endpointId: e!.endpointId,
      eventType: 'proof.accepted',
      state: 'pending',
      attempts: 0,
      nextAttemptAtMs: T0,
      lastStatusCode: null,
      lastError: null,
      lastAttemptAtMs: null,
      createdAtMs: T0,
    });
    const last = events[1]!.id;
    t.true(await fx.queue.enqueue([{ endpointId: e!.endpointId, event: events[1]! }], { name: CURSOR, from: last, to: last }, T0 + 5));
    t.is((await deliveries(fx, e!)).length, 2, 'the one already there is kept, not doubled');
  });

  testFn(`${name}: an enqueue from a cursor that moved meanwhile changes nothing`, async (t) => {
    const fx = await make();
    const [e] = await endpoints(fx, WALLET_A);
    const events = await fanOut(fx, [e!], 2);
    const stale = [{ endpointId: e!.endpointId, event: events[0]! }];
    await fx.events.append([anEvent(WALLET_A)]);
    const [newer] = await fx.events.allEvents(events[1]!.id, 10);
    const late = [{ endpointId: e!.endpointId, event: newer! }];
    t.false(await fx.queue.enqueue(late, { name: CURSOR, from: 0, to: newer!.id }, T0));
    t.false(await fx.queue.enqueue(late, { name: CURSOR, from: events[0]!.id, to: newer!.id }, T0));
    t.false(await fx.queue.enqueue(stale, { name: 'fresh-job', from: 7, to: 9 }, T0));
    t.is(await fx.queue.cursor(CURSOR), events[1]!.id);
    t.is(await fx.queue.cursor('fresh-job'), 0);
    t.deepEqual(
      (await fx.queue.list(WALLET_A, e!.endpointId, { limit: 10 }))!.items.map((d) => d.eventId),
      [events[1]!.id, events[0]!.id],
    );
  });

  testFn(`${name}: an enqueue skips an endpoint deleted since the fan-out read it`, async (t) => {
    const fx = await make();
    const [kept, gone] = await endpoints(fx, WALLET_A, WALLET_A);
    await fx.endpoints.delete(WALLET_A, gone!.endpointId);
    await fanOut(fx, [kept!, gone!], 1);
    t.is((await deliveries(fx, kept!)).length, 1);
    t.is(await fx.queue.prune(FAR, 100), 1);
  });

  testFn(`${name}: claim returns what is due, oldest first, with endpoint and event, and not again until the lock runs out`, async (t) => {
    const fx = await make();
    const [e] = await endpoints(fx, WALLET_A);
    const events = await fanOut(fx, [e!], 2);
    t.deepEqual(await fx.queue.claim(T0 - 1, LOCK, 10, 10), [], 'not due yet');
    const claimed = await fx.queue.claim(T0, LOCK, 10, 10);
    t.deepEqual(
      claimed.map((c) => c.event),
      events,
    );
    t.deepEqual(claimed[0]!.endpoint, (await fx.endpoints.get(WALLET_A, e!.endpointId))!);
    t.like(claimed[0], { manual: false, delivery: { endpointId: e!.endpointId, eventId: events[0]!.id, state: 'pending', attempts: 0 } });
    t.deepEqual(await claimedIds(fx, T0 + 1), []);
    t.deepEqual(await claimedIds(fx, T0 + LOCK), [], 'held until the lock ends, inclusive');
    t.deepEqual(
      await claimedIds(fx, T0 + LOCK + 1),
      claimed.map((c) => c.delivery.deliveryId),
    );
  });

  testFn(`${name}: claim takes at most limit, and at most perEndpoint per endpoint counting those already claimed`, async (t) => {
    const fx = await make();
    const [busy, quiet] = await endpoints(fx, WALLET_A, WALLET_B);
    await fanOut(fx, [busy!, quiet!], 5);
    const [b, q] = [await deliveries(fx, busy!), await deliveries(fx, quiet!)];
    const first = await fx.queue.claim(T0, LOCK, 3, 2);
    t.deepEqual(
      first.map((c) => c.delivery.deliveryId),
      [b[0]!.deliveryId, b[1]!.deliveryId, q[0]!.deliveryId],
    );
    t.deepEqual(await claimedIds(fx, T0 + 1, 10, 2), [q[1]!.deliveryId]);
    t.deepEqual(await claimedIds(fx, T0 + 2, 10, 2), []);
    await fx.queue.record([succeeded(b[0]!, 1, T0 + 3)]);
    t.deepEqual(await claimedIds(fx, T0 + 4, 10, 2), [b[2]!.deliveryId], 'a recorded attempt frees its slot');
    t.deepEqual(
      await claimedIds(fx, T0 + LOCK + 5, 10, 3),
      [b[1], b[2], b[3], q[0], q[1], q[2]].map((d) => d!.deliveryId),
    );
  });

  testFn(`${name}: deliveries to a disabled endpoint wait until it is enabled again`, async (t) => {
    const fx = await make();
    const [off, on] = await endpoints(fx, WALLET_A, WALLET_A);
    await fanOut(fx, [off!, on!], 1);
    await fx.endpoints.disable(off!.endpointId, 'answered 410 Gone', T0);
    t.deepEqual(
      (await fx.queue.claim(T0, LOCK, 10, 10)).map((c) => c.endpoint.endpointId),
      [on!.endpointId],
    );
    await fx.endpoints.update(WALLET_A, off!.endpointId, { enabled: true }, T0 + 1);
    t.deepEqual(
      (await fx.queue.claim(T0 + 2, LOCK, 10, 10)).map((c) => c.endpoint.endpointId),
      [off!.endpointId],
    );
    await fx.endpoints.update(WALLET_A, on!.endpointId, { enabled: false }, T0 + 3);
    t.deepEqual(await claimedIds(fx, FAR), [(await deliveries(fx, off!))[0]!.deliveryId]);
  });

  testFn(`${name}: a claimed delivery whose event retention took comes without it`, async (t) => {
    const fx = await make();
    const [e] = await endpoints(fx, WALLET_A);
    await fanOut(fx, [e!], 1);
    await fx.events.prune(FAR, 100);
    const [claimed] = await fx.queue.claim(T0, LOCK, 10, 10);
    t.is(claimed?.event, null);
  });

  testFn(`${name}: record logs the attempt and moves the delivery and the endpoint's failing streak`, async (t) => {
    const fx = await make();
    const [e] = await endpoints(fx, WALLET_A);
    await fanOut(fx, [e!], 2);
    const [d1, d2] = await deliveries(fx, e!);
    await fx.queue.claim(T0, LOCK, 10, 10);
    await fx.queue.record([failed(d1!, 1, T0 + 100, T0 + 5_000)]);
    const after = (await fx.queue.get(WALLET_A, e!.endpointId, d1!.deliveryId))!;
    t.deepEqual(after.delivery, {
      ...d1!,
      state: 'pending',
      attempts: 1,
      nextAttemptAtMs: T0 + 5_000,
      lastStatusCode: 500,
      lastError: 'answered 500',
      lastAttemptAtMs: T0 + 100,
    });
    t.deepEqual(after.attempts, [attempt(1, T0 + 100)]);
    t.like(await fx.endpoints.get(WALLET_A, e!.endpointId), { failingSinceMs: T0 + 100, lastSuccessAtMs: null });
    await fx.queue.record([failed(d2!, 1, T0 + 200, null, { statusCode: null, error: 'timed out', responseExcerpt: '' })]);
    t.like(await fx.endpoints.get(WALLET_A, e!.endpointId), { failingSinceMs: T0 + 100 }, 'the streak keeps its start');
    t.like((await fx.queue.get(WALLET_A, e!.endpointId, d2!.deliveryId))!.delivery, {
      state: 'failed',
      nextAttemptAtMs: null,
      lastStatusCode: null,
      lastError: 'timed out',
    });
    t.deepEqual(await claimedIds(fx, T0 + 4_999), [], 'released, but not due before its next attempt');
    t.deepEqual(await claimedIds(fx, T0 + 5_000), [d1!.deliveryId]);
    await fx.queue.record([succeeded(d1!, 2, T0 + 5_100)]);
    t.like(await fx.endpoints.get(WALLET_A, e!.endpointId), { failingSinceMs: null, lastSuccessAtMs: T0 + 5_100 });
    const got = (await fx.queue.get(WALLET_A, e!.endpointId, d1!.deliveryId))!;
    t.like(got.delivery, { state: 'succeeded', attempts: 2, nextAttemptAtMs: null, lastStatusCode: 200, lastError: null });
    t.deepEqual(
      got.attempts.map((a) => [a.attempt, a.statusCode]),
      [
        [1, 500],
        [2, 200],
      ],
    );
    t.deepEqual(await claimedIds(fx, FAR), [], 'succeeded and failed deliveries are never due');
  });

  testFn(`${name}: an attempt recorded twice keeps its first log row and fails nothing else in the batch`, async (t) => {
    const fx = await make();
    const [e] = await endpoints(fx, WALLET_A);
    await fanOut(fx, [e!], 2);
    const [d1, d2] = await deliveries(fx, e!);
    await fx.queue.claim(T0, LOCK, 10, 10);
    await fx.queue.record([failed(d1!, 1, T0 + 100, T0 + 500)]);
    await fx.queue.record([failed(d1!, 1, T0 + 150, T0 + 600, { statusCode: 502 }), succeeded(d2!, 1, T0 + 160)]);
    t.deepEqual((await fx.queue.get(WALLET_A, e!.endpointId, d1!.deliveryId))!.attempts, [attempt(1, T0 + 100)]);
    t.like((await fx.queue.get(WALLET_A, e!.endpointId, d2!.deliveryId))!.delivery, { state: 'succeeded', attempts: 1 });
    await fx.endpoints.delete(WALLET_A, e!.endpointId);
    await t.notThrowsAsync(fx.queue.record([failed(d1!, 2, T0 + 700, null)]), 'a delivery deleted meanwhile is skipped');
  });

  testFn(`${name}: one record of many outcomes moves each delivery its own way; one whose endpoint went meanwhile is skipped`, async (t) => {
    const fx = await make();
    const [e, gone] = await endpoints(fx, WALLET_A, WALLET_A);
    await fanOut(fx, [e!, gone!], 5);
    const mine = await deliveries(fx, e!);
    const theirs = await deliveries(fx, gone!);
    await fx.queue.redeliver(WALLET_A, e!.endpointId, mine[4]!.deliveryId, T0);
    await fx.queue.claim(T0, LOCK, 100, 100);
    t.true(await fx.endpoints.delete(WALLET_A, gone!.endpointId));
    await fx.queue.record([
      failed(theirs[0]!, 1, T0 + 10, T0 + 900),
      failed(mine[0]!, 1, T0 + 10, T0 + 1_000),
      failed(mine[4]!, 1, T0 + 35, T0 + 2_000, { trigger: 'manual' }),
      failed(mine[1]!, 1, T0 + 20, null, { statusCode: null, error: 'timed out', responseExcerpt: '' }),
      succeeded(mine[2]!, 1, T0 + 30),
      succeeded(mine[3]!, 1, T0 + 40),
    ]);
    const state = async (d: Delivery) => (await fx.queue.get(WALLET_A, e!.endpointId, d.deliveryId))!;
    t.like((await state(mine[0]!)).delivery, {
      state: 'pending',
      attempts: 1,
      nextAttemptAtMs: T0 + 1_000,
      lastStatusCode: 500,
      lastError: 'answered 500',
      lastAttemptAtMs: T0 + 10,
    });
    t.like((await state(mine[1]!)).delivery, {
      state: 'failed',
      attempts: 1,
      nextAttemptAtMs: null,
      lastStatusCode: null,
      lastError: 'timed out',
      lastAttemptAtMs: T0 + 20,
    });
    t.like((await state(mine[2]!)).delivery, { state: 'succeeded', lastStatusCode: 200, lastError: null, lastAttemptAtMs: T0 + 30 });
    t.like((await state(mine[3]!)).delivery, { state: 'succeeded', lastAttemptAtMs: T0 + 40 });
    t.deepEqual((await state(mine[4]!)).attempts, [attempt(1, T0 + 35, { trigger: 'manual' })]);
    for (const d of mine) t.is((await state(d)).attempts.length, 1, `one attempt logged for delivery ${d.deliveryId}`);
    // Released: the two pending ones are due again at their times, and the redelivery's is scheduled now, not manual.
    t.deepEqual(await claimedIds(fx, T0 + 999), []);
    t.deepEqual(await claimedIds(fx, T0 + 1_000), [mine[0]!.deliveryId]);
    t.like(await fx.queue.claim(T0 + 2_000, LOCK, 10, 10), [{ manual: false, delivery: { deliveryId: mine[4]!.deliveryId } }]);
    t.like(await fx.endpoints.get(WALLET_A, e!.endpointId), { failingSinceMs: null, lastSuccessAtMs: T0 + 40 });
  });

  testFn(`${name}: in one record, the endpoint's streak is where its last attempt left it, whatever the order given`, async (t) => {
    const fx = await make();
    const [e] = await endpoints(fx, WALLET_A);
    await fanOut(fx, [e!], 4);
    const [d1, d2, d3, d4] = await deliveries(fx, e!);
    await fx.queue.claim(T0, LOCK, 10, 10);
    await fx.queue.record([failed(d2!, 1, T0 + 30, T0 + 900), succeeded(d1!, 1, T0 + 20), failed(d3!, 1, T0 + 40, T0 + 900)]);
    t.like(
      await fx.endpoints.get(WALLET_A, e!.endpointId),
      { failingSinceMs: T0 + 30, lastSuccessAtMs: T0 + 20 },
      'failing since the first failure after the success',
    );
    await fx.queue.record([succeeded(d4!, 1, T0 + 60), failed(d2!, 2, T0 + 50, T0 + 900)]);
    t.like(await fx.endpoints.get(WALLET_A, e!.endpointId), { failingSinceMs: null, lastSuccessAtMs: T0 + 60 }, 'the last attempt succeeded');
  });

  testFn(`${name}: list pages the endpoint's deliveries newest first, by state, for its owner only`, async (t) => {
    const fx = await make();
    const [e, other] = await endpoints(fx, WALLET_A, WALLET_A);
    await fanOut(fx, [e!, other!], 5);
    const ds = (await deliveries(fx, e!)).map((d) => d.deliveryId);
    const page = (q: { before?: number; limit: number; state?: 'pending' | 'succeeded' | 'failed' }) => fx.queue.list(WALLET_A, e!.endpointId, q);
    const first = (await page({ limit: 2 }))!;
    t.deepEqual(
      first.items.map((d) => d.deliveryId),
      [ds[4], ds[3]],
    );
    t.is(first.next, ds[3]!);
    const second = (await page({ before: first.next!, limit: 2 }))!;
    t.deepEqual([second.items.map((d) => d.deliveryId), second.next], [[ds[2], ds[1]], ds[1]]);
    t.deepEqual(await page({ before: second.next!, limit: 2 }), { items: [(await fx.queue.get(WALLET_A, e!.endpointId, ds[0]!))!.delivery], next: null });
    t.is((await page({ limit: 5 }))!.next, null);
    await fx.queue.claim(T0, LOCK, 10, 10);
    await fx.queue.record([succeeded({ deliveryId: ds[1]!, endpointId: e!.endpointId }, 1, T0 + 1)]);
    t.deepEqual(
      (await page({ limit: 10, state: 'succeeded' }))!.items.map((d) => d.deliveryId),
      [ds[1]],
    );
    t.is((await page({ limit: 10, state: 'pending' }))!.items.length, 4);
    t.is(await fx.queue.list(WALLET_B, e!.endpointId, { limit: 10 }), null);
    t.is(await fx.queue.list(WALLET_A, 'wh_missing', { limit: 10 }), null);
  });

  testFn(`${name}: get answers only for the owner's endpoint and that endpoint's own delivery`, async (t) => {
    const fx = await make();
    const [e, sibling, theirs] = await endpoints(fx, WALLET_A, WALLET_A, WALLET_B);
    await fanOut(fx, [e!, theirs!], 1);
    const [d] = await deliveries(fx, e!);
    t.like((await fx.queue.get(WALLET_A, e!.endpointId, d!.deliveryId))?.delivery, { deliveryId: d!.deliveryId, endpointId: e!.endpointId });
    t.is(await fx.queue.get(WALLET_B, e!.endpointId, d!.deliveryId), null);
    t.is(await fx.queue.get(WALLET_A, sibling!.endpointId, d!.deliveryId), null);
    t.is(await fx.queue.get(WALLET_B, theirs!.endpointId, d!.deliveryId), null);
    t.is(await fx.queue.get(WALLET_A, e!.endpointId, d!.deliveryId + 1_000), null);
  });

  testFn(`${name}: redeliver makes a delivery due now again, as the owner's manual attempt`, async (t) => {
    const fx = await make();
    const [e, theirs] = await endpoints(fx, WALLET_A, WALLET_B);
    await fanOut(fx, [e!], 1);
    const [d] = await deliveries(fx, e!);
    await fx.queue.claim(T0, LOCK, 10, 10);
    await fx.queue.record([succeeded(d!, 1, T0 + 100)]);
    t.is(await fx.queue.redeliver(WALLET_B, e!.endpointId, d!.deliveryId, 5_000), null);
    t.is(await fx.queue.redeliver(WALLET_B, theirs!.endpointId, d!.deliveryId, 5_000), null);
    t.deepEqual(await claimedIds(fx, FAR), []);
    t.like(await fx.queue.redeliver(WALLET_A, e!.endpointId, d!.deliveryId, 5_000), {
      deliveryId: d!.deliveryId,
      state: 'pending',
      nextAttemptAtMs: 5_000,
      attempts: 1,
    });
    t.deepEqual(await claimedIds(fx, 4_999), []);
    const [claimed] = await fx.queue.claim(5_000, LOCK, 10, 10);
    t.like(claimed, { manual: true, delivery: { deliveryId: d!.deliveryId } });
    await fx.queue.record([failed(d!, 2, 5_100, 9_000, { trigger: 'manual' })]);
    t.deepEqual(
      (await fx.queue.get(WALLET_A, e!.endpointId, d!.deliveryId))!.attempts.map((a) => [a.attempt, a.trigger]),
      [
        [1, 'scheduled'],
        [2, 'manual'],
      ],
    );
    const [retry] = await fx.queue.claim(9_000, LOCK, 10, 10);
    t.like(retry, { manual: false, delivery: { deliveryId: d!.deliveryId } }, 'the retry that follows is scheduled');
  });

  testFn(`${name}: deleting an endpoint removes its deliveries`, async (t) => {
    const fx = await make();
    const [gone, kept] = await endpoints(fx, WALLET_A, WALLET_A);
    await fanOut(fx, [gone!, kept!], 2);
    await fx.queue.claim(T0, LOCK, 1, 10);
    await fx.queue.record([failed((await deliveries(fx, gone!))[0]!, 1, T0 + 1, T0 + 2)]);
    t.true(await fx.endpoints.delete(WALLET_A, gone!.endpointId));
    t.deepEqual(
      (await fx.queue.claim(FAR, LOCK, 10, 10)).map((c) => c.endpoint.endpointId),
      [kept!.endpointId, kept!.endpointId],
    );
    t.is(await fx.queue.prune(FAR, 100), 2);
  });

  testFn(`${name}: prune deletes at most max of the deliveries made before the time, oldest first, with their attempts`, async (t) => {
    const fx = await make();
    const [e] = await endpoints(fx, WALLET_A);
    await fanOut(fx, [e!], 2, 1_000);
    await fanOut(fx, [e!], 1, 2_000);
    await fanOut(fx, [e!], 1, 3_000);
    await fx.queue.claim(1_000, LOCK, 1, 10);
    await fx.queue.record([succeeded((await deliveries(fx, e!))[0]!, 1, 1_100)]);
    t.is(await fx.queue.prune(3_000, 2), 2);
    t.deepEqual(
      (await deliveries(fx, e!)).map((d) => d.createdAtMs),
      [2_000, 3_000],
    );
    t.is(await fx.queue.prune(3_000, 2), 1);
    t.is(await fx.queue.prune(3_000, 2), 0);
    t.is((await deliveries(fx, e!)).length, 1);
  });
}
