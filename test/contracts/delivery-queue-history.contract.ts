import test from 'ava';
import type { DeclareTest } from '../support/databases.js';
import { WALLET_A, WALLET_B } from '../support/mothers.js';
import { type QueueFixture, T0, LOCK, FAR, failed, succeeded, endpoints, fanOut, deliveries, claimedIds } from './delivery-queue-fixture.js';

/**
 * The DeliveryQueue contract, the owner's view (list, get, redeliver) and removal (endpoint
 * deletion, pruning). Memory, SQLite and PostgreSQL run it with deliveryQueueClaimContract and
 * deliveryQueueRecordContract; `make` returns an empty queue over an empty store and log.
 */
export function deliveryQueueHistoryContract(name: string, make: () => Promise<QueueFixture>, testFn: DeclareTest = test): void {
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
