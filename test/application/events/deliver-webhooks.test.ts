import test from 'ava';
import { Webhook } from 'standardwebhooks';
import { keyCreated } from '../../../src/domain/events/announcements.js';
import { MAX_ATTEMPTS, RETRY_DELAYS_S } from '../../../src/domain/events/webhook.js';
import { anEndpoint } from '../../contracts/webhook-store.contract.js';
import { WALLET_A } from '../../support/mothers.js';
import { webhookWorld } from './webhook-world.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const keyEvent = (atMs: number) =>
  keyCreated({
    keyId: 'key_1',
    wallet: WALLET_A,
    name: 'k',
    prefix: 'pr_live_ab',
    createdAtMs: atMs,
    scopes: null,
    robotIds: null,
    expiresAtMs: null,
    disabledAtMs: null,
  });

async function withEndpoint(over: Parameters<typeof anEndpoint>[1] = {}) {
  const world = webhookWorld();
  const endpoint = anEndpoint(WALLET_A, { secret: SECRET, eventTypes: null, createdAtMs: world.clock.now - 1000, ...over });
  await world.endpoints.create(endpoint, 20);
  await world.events.append([keyEvent(world.clock.now)]);
  return { ...world, endpoint };
}

test('a delivery is signed as Standard Webhooks says, with the event id as webhook-id, and recorded as succeeded', async (t) => {
  const w = await withEndpoint();
  await w.round();
  t.is(w.transport.requests.length, 1);
  const [request] = w.transport.requests;
  t.is(request!.url, w.endpoint.url);
  const body = new Webhook(SECRET).verify(request!.body, request!.headers as Record<string, string>) as { id: string; type: string };
  t.is(body.type, 'key.created');
  t.is(request!.headers['webhook-id'], body.id);
  t.is(request!.headers['webhook-timestamp'], String(Math.floor(w.clock.now / 1000)));
  const page = (await w.queue.list(WALLET_A, w.endpoint.endpointId, { limit: 10 }))!;
  t.like(page.items[0], { state: 'succeeded', attempts: 1, lastStatusCode: 200 });
  t.like((await w.endpoints.get(WALLET_A, w.endpoint.endpointId))!, { failingSinceMs: null, lastSuccessAtMs: w.clock.now });
});

test('failures are retried on the schedule, each with the same webhook-id, until the attempts run out', async (t) => {
  const w = await withEndpoint();
  w.transport.answer = () => ({ statusCode: 503 });
  const start = w.clock.now;
  await w.round();
  for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
    const delivery = (await w.queue.list(WALLET_A, w.endpoint.endpointId, { limit: 1 }))!.items[0]!;
    t.is(delivery.state, 'pending');
    // With jitter 0.5 the delay is the schedule's own.
    t.is(delivery.nextAttemptAtMs! - w.clock.now, RETRY_DELAYS_S[attempt - 1]! * 1000);
    w.clock.now = delivery.nextAttemptAtMs! - 1;
    await w.round();
    t.is(w.transport.requests.length, attempt, 'not before it is due');
    w.clock.now = delivery.nextAttemptAtMs!;
    await w.round();
  }
  t.is(w.transport.requests.length, MAX_ATTEMPTS);
  t.is(new Set(w.transport.requests.map((r) => r.headers['webhook-id'])).size, 1);
  const last = (await w.queue.list(WALLET_A, w.endpoint.endpointId, { limit: 1 }))!.items[0]!;
  t.like(last, { state: 'failed', attempts: MAX_ATTEMPTS, nextAttemptAtMs: null, lastStatusCode: 503 });
  const days = (w.clock.now - start) / 86_400_000;
  t.true(days > 2.5 && days < 3.2, `over about three days (${days.toFixed(2)})`);
  const detail = (await w.queue.get(WALLET_A, w.endpoint.endpointId, last.deliveryId))!;
  t.is(detail.attempts.length, MAX_ATTEMPTS);
  t.deepEqual(
    detail.attempts.map((a) => a.attempt),
    Array.from({ length: MAX_ATTEMPTS }, (_, i) => i + 1),
  );
});

test('410 Gone ends the delivery and turns the endpoint off, saying why', async (t) => {
  const w = await withEndpoint();
  w.transport.answer = () => ({ statusCode: 410 });
  await w.round();
  const endpoint = (await w.endpoints.get(WALLET_A, w.endpoint.endpointId))!;
  t.false(endpoint.enabled);
  t.regex(endpoint.disabledReason!, /410 Gone/);
  t.like((await w.queue.list(WALLET_A, w.endpoint.endpointId, { limit: 1 }))!.items[0], { state: 'failed', attempts: 1 });
  await w.events.append([keyEvent(w.clock.now)]);
  await w.round();
  t.is(w.transport.requests.length, 1, 'a disabled endpoint gets nothing more');
});

test('an endpoint failing for longer than the limit is turned off with the last error', async (t) => {
  const since = Date.now() - 6 * 86_400_000;
  const w = await withEndpoint({ failingSinceMs: since });
  w.transport.answer = () => ({ statusCode: null, error: 'connection refused' });
  await w.round();
  const endpoint = (await w.endpoints.get(WALLET_A, w.endpoint.endpointId))!;
  t.false(endpoint.enabled);
  t.is(endpoint.disabledReason, `failing since ${new Date(since).toISOString()}; last error: connection refused`);
});

test('during a rotation overlap both secrets sign; after it, only the new one', async (t) => {
  const until = Date.now() + 3_600_000;
  const w = await withEndpoint({ secret: 'whsec_bmV3c2VjcmV0bmV3c2VjcmV0bmV3c2VjcmV0', previousSecret: SECRET, previousSecretUntilMs: until });
  await w.round();
  const [first] = w.transport.requests;
  t.is(first!.headers['webhook-signature']!.split(' ').length, 2);
  t.notThrows(() => new Webhook(SECRET).verify(first!.body, first!.headers as Record<string, string>));
  t.notThrows(() => new Webhook('whsec_bmV3c2VjcmV0bmV3c2VjcmV0bmV3c2VjcmV0').verify(first!.body, first!.headers as Record<string, string>));
  w.clock.now = until;
  await w.events.append([keyEvent(w.clock.now)]);
  await w.round();
  const second = w.transport.requests[1]!;
  t.is(second.headers['webhook-signature']!.split(' ').length, 1);
  t.true(verifiesWith(SECRET, second, until) === false, 'the old secret no longer signs');
});

test('a redelivery sends the same event again, logged as manual', async (t) => {
  const w = await withEndpoint();
  await w.round();
  const delivery = (await w.queue.list(WALLET_A, w.endpoint.endpointId, { limit: 1 }))!.items[0]!;
  await w.queue.redeliver(WALLET_A, w.endpoint.endpointId, delivery.deliveryId, w.clock.now);
  await w.round();
  t.is(w.transport.requests.length, 2);
  t.is(w.transport.requests[0]!.body, w.transport.requests[1]!.body);
  t.deepEqual(
    (await w.queue.get(WALLET_A, w.endpoint.endpointId, delivery.deliveryId))!.attempts.map((a) => a.trigger),
    ['scheduled', 'manual'],
  );
});

test('a receiver that hangs holds at most its share of the senders; another endpoint is still served', async (t) => {
  const w = webhookWorld({ concurrency: 4, perEndpoint: 2 });
  const slow = anEndpoint(WALLET_A, { eventTypes: null, createdAtMs: 0, url: 'https://slow.example/' });
  const fast = anEndpoint(WALLET_A, { eventTypes: null, createdAtMs: 0, url: 'https://fast.example/' });
  await w.endpoints.create(slow, 20);
  await w.endpoints.create(fast, 20);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  w.transport.answer = async (r) => {
    if (r.url.startsWith('https://slow')) await held;
    return { statusCode: 200 };
  };
  await w.events.append(Array.from({ length: 5 }, () => keyEvent(w.clock.now)));
  await w.fanOut.execute();
  t.is(await w.deliver.tick(), 4, 'two for each endpoint');
  await new Promise((resolve) => setImmediate(resolve));
  t.is(w.deliver.busy, 2, 'the fast ones are done; only the slow endpoint holds senders');
  await w.deliver.flush();
  t.is(await w.deliver.tick(), 2, 'the fast endpoint gets its next ones, not the slow one');
  await new Promise((resolve) => setImmediate(resolve));
  await w.deliver.flush();
  const fastDone = (await w.queue.list(WALLET_A, fast.endpointId, { limit: 10, state: 'succeeded' }))!.items.length;
  t.is(fastDone, 4);
  release();
  await w.deliver.drain();
});

test('whenFinished resolves once that many more attempts have finished, or when none is left in flight', async (t) => {
  const w = webhookWorld({ concurrency: 8, perEndpoint: 4 });
  const endpoint = anEndpoint(WALLET_A, { eventTypes: null, createdAtMs: 0 });
  await w.endpoints.create(endpoint, 20);
  const releases: Array<() => void> = [];
  w.transport.answer = () => new Promise((resolve) => releases.push(() => resolve({ statusCode: 200 })));
  await t.notThrowsAsync(w.deliver.whenFinished(3), 'at once with nothing in flight');
  await w.events.append(Array.from({ length: 4 }, () => keyEvent(w.clock.now)));
  await w.fanOut.execute();
  t.is(await w.deliver.tick(), 4);
  await new Promise((resolve) => setImmediate(resolve));
  let resolved = false;
  const two = w.deliver.whenFinished(2).then(() => (resolved = true));
  releases[0]!();
  await new Promise((resolve) => setImmediate(resolve));
  t.false(resolved, 'one of two finished');
  releases[1]!();
  await two;
  t.is(w.deliver.busy, 2);
  let last = false;
  const five = w.deliver.whenFinished(5).then(() => (last = true));
  releases[2]!();
  await new Promise((resolve) => setImmediate(resolve));
  t.false(last);
  releases[3]!();
  await five;
  t.is(w.deliver.busy, 0, 'fewer than five were left: it resolves as the last one ends');
  await w.deliver.drain();
});

/** Whether the package accepts the request with `secret`, on a receiver whose clock reads `nowMs`. */
function verifiesWith(secret: string, request: { body: string; headers: Readonly<Record<string, string>> }, nowMs: number): boolean {
  const realNow = Date.now;
  Date.now = () => nowMs;
  try {
    new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  } finally {
    Date.now = realNow;
  }
}
