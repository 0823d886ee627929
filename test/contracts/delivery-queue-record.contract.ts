import test from 'ava';
import type { Delivery } from '../../src/application/ports/delivery-queue.js';
import type { DeclareTest } from '../support/databases.js';
import { WALLET_A } from '../support/mothers.js';
import { type QueueFixture, T0, LOCK, FAR, attempt, failed, succeeded, endpoints, fanOut, deliveries, claimedIds } from './delivery-queue-fixture.js';

/**
 * The DeliveryQueue contract, recording attempts and the endpoint's failing streak. Memory,
 * SQLite and PostgreSQL run it with deliveryQueueClaimContract and deliveryQueueHistoryContract;
 * `make` returns an empty queue over an empty store and log.
 */
export function deliveryQueueRecordContract(name: string, make: () => Promise<QueueFixture>, testFn: DeclareTest = test): void {
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
}
