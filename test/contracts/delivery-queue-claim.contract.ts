import test from 'ava';
import type { DeclareTest } from '../support/databases.js';
import { WALLET_A, WALLET_B } from '../support/mothers.js';
import { anEvent } from './event-log.contract.js';
import { type QueueFixture, CURSOR, T0, LOCK, FAR, succeeded, endpoints, fanOut, deliveries, claimedIds } from './delivery-queue-fixture.js';

/**
 * The DeliveryQueue contract, enqueueing and claiming deliveries. Memory, SQLite and PostgreSQL
 * run it with deliveryQueueRecordContract and deliveryQueueHistoryContract; `make` returns an
 * empty queue over an empty store and log.
 */
export function deliveryQueueClaimContract(name: string, make: () => Promise<QueueFixture>, testFn: DeclareTest = test): void {
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
}
