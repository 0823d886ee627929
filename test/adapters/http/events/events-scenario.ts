import type { ExecutionContext } from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { Webhook } from 'standardwebhooks';
import type { Clock } from '../../../../src/application/ports/clock.js';
import { IDENTITY } from '../../../../src/composition/identity.tokens.js';
import { resolve } from '../../../../src/composition/token.js';
import { hexToBytes } from '../../../../src/domain/protocol/encoding.js';
import { verifyInclusionAnswer } from '../../../../src/log-verification.js';
import { anEnvelope, WALLET_A, WALLET_B } from '../../../support/mothers.js';
import { startTestRegistry, type TestRegistry } from '../../../support/registry.js';
import { openApiConformance, openApiWebhookConformance } from '../../../support/openapi-conformance.js';
import { bodiesOf, startReceiver, type Received } from '../../../support/webhook-receiver.js';

/** A clock the test moves forward, to let devices fall silent without waiting an hour. */
export class MovableClock implements Clock {
  private offsetMs = 0;
  nowMs(): number {
    return Math.floor(performance.timeOrigin + performance.now()) + this.offsetMs;
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** The registry on `databaseUrl`, with webhooks allowed to reach this machine and quick event jobs. */
export async function eventsRegistry(databaseUrl: string, clock: Clock, env: Record<string, string> = {}): Promise<TestRegistry> {
  return startTestRegistry({
    clock,
    env: {
      DATABASE_URL: databaseUrl,
      WEBHOOK_ALLOW_PRIVATE: '1',
      EVENT_POLL_MS: '20',
      DEVICE_SWEEP_MS: '50',
      DEVICE_ONLINE_WINDOW_S: '60',
      DEVICE_OFFLINE_AFTER_S: '600',
      LOG_CHECKPOINT_INTERVAL_MS: '100',
      ...env,
    },
  });
}

/** Verified by the Standard Webhooks package, on a receiver whose clock agrees with the registry's (which the test moved). */
function verified(secret: string, r: Received, clock: Clock): { id: string; type: string; data: Record<string, unknown> } {
  const realNow = Date.now;
  Date.now = () => clock.nowMs();
  try {
    return new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { id: string; type: string; data: Record<string, unknown> };
  } finally {
    Date.now = realNow;
  }
}

/**
 * Proofs accepted and refused, a health report, a device going silent, keys made and deleted:
 * every event reaches every endpoint subscribed to it, signed so that the Standard Webhooks
 * package's own `verify` accepts it, and the feed holds the same; another wallet's endpoint
 * and feed get nothing of it.
 */
export async function scriptedScenario(t: ExecutionContext, databaseUrl: string): Promise<void> {
  const clock = new MovableClock();
  const registry = await eventsRegistry(databaseUrl, clock);
  t.teardown(() => registry.close());
  const [all, acceptedOnly, other] = [await startReceiver(t), await startReceiver(t), await startReceiver(t)];

  const created = await registry.call(WALLET_A, 'POST', '/v1/webhooks', { url: all.url, description: 'everything' });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.regex(created.body.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
  const narrow = await registry.call(WALLET_A, 'POST', '/v1/webhooks', { url: acceptedOnly.url, event_types: ['proof.accepted'] });
  t.is(narrow.status, 201);
  // Each delivery is verified as it arrives, as a receiver does (the timestamp must be recent).
  const secret = created.body.secret as string;
  const events: Array<{ id: string; type: string; data: Record<string, unknown> } | Error> = [];
  all.answer = (r) => {
    try {
      events.push(verified(secret, r, clock));
    } catch (err) {
      events.push(err as Error);
    }
    return 200;
  };
  const otherWallet = await registry.call(WALLET_B, 'POST', '/v1/webhooks', { url: other.url });
  t.is(otherWallet.status, 201);
  const listed = await registry.call(WALLET_A, 'GET', '/v1/webhooks');
  t.deepEqual(listed.body.items.map((e: { endpoint_id: string }) => e.endpoint_id).sort(), [created.body.endpoint_id, narrow.body.endpoint_id].sort());
  t.false(JSON.stringify(listed.body).includes('whsec_'), 'a listed endpoint never shows its secret');

  const envelope = anEnvelope({ taskId: 'weld-7', robotId: 'arm-1', runId: 'r1' });
  const accepted = await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope });
  t.is(accepted.status, 200);
  const again = await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope });
  t.is(again.body.duplicate, true);
  const forged = { ...envelope, payload: { ...envelope.payload, subject: { ...envelope.payload.subject, task_id: 'weld-8' } } };
  const refused = await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope: forged });
  t.is(refused.status, 422);
  t.like(refused.body, { code: 'payload_hash_mismatch', check: 'payload_hash' });
  t.is((await registry.call(WALLET_A, 'POST', '/v1/fleet/devices/arm-1/health', { status: 'error', message: 'gripper jam' })).status, 201);
  t.is((await registry.call(WALLET_A, 'POST', '/v1/fleet/devices/arm-1/health', { status: 'ok' })).status, 201);
  const createKey = await resolve(registry.container, IDENTITY.CreateApiKey);
  const deleteKey = await resolve(registry.container, IDENTITY.DeleteApiKey);
  const key = await createKey.execute({ wallet: WALLET_A, name: 'robot key' });
  if (E.isLeft(key)) return t.fail('no key');
  t.true(E.isRight(await deleteKey.execute({ wallet: WALLET_A, keyId: key.right.record.keyId })));

  // Silence: past the online window (warning), then past DEVICE_OFFLINE_AFTER_S (offline).
  // Each jump waits for the attempts in flight to be recorded: a claim outlived by a jump of
  // the clock would run out, and the delivery be sent again (at least once, as promised).
  const settled = async () => {
    for (let i = 0; i < 500; i++) {
      const pending = await Promise.all(
        [created, narrow].map(
          async (e) => (await registry.call(WALLET_A, 'GET', `/v1/webhooks/${e.body.endpoint_id}/deliveries?state=pending`)).body.items.length,
        ),
      );
      if (pending.every((n) => n === 0)) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('deliveries stayed pending');
  };
  await all.until((r) => bodiesOf(r).some((b) => b.type === 'proof.logged'), 'proof.logged');
  await settled();
  clock.advance(120_000);
  await all.until((r) => bodiesOf(r).some((b) => b.type === 'device.status_changed' && b.data.to === 'warning'), 'the device turning to warning');
  await settled();
  clock.advance(600_000);
  await all.until((r) => bodiesOf(r).some((b) => b.type === 'device.status_changed' && b.data.to === 'offline'), 'the device going offline');

  t.deepEqual(
    events.filter((e) => e instanceof Error),
    [],
    'every delivery verifies',
  );
  const ids = bodiesOf(all.received).map((b) => b.id);
  t.deepEqual(ids, [...new Set(ids)], 'each event once (no retry was needed)');
  t.deepEqual(
    all.received.map((r) => r.headers['webhook-id']),
    ids,
    'webhook-id is the event id',
  );
  const ok = (events as Array<{ id: string; type: string; data: Record<string, unknown> }>).sort((a, b) => (a.id < b.id ? -1 : 1));
  const types = ok.map((e) => e.type);
  t.deepEqual([...new Set(types)].sort(), ['device.status_changed', 'key.created', 'key.deleted', 'proof.accepted', 'proof.logged', 'proof.rejected']);
  t.is(types.filter((x) => x === 'proof.accepted').length, 1, 'a duplicate submission announces nothing');
  const statuses = ok.filter((e) => e.type === 'device.status_changed').map((e) => [e.data.from, e.data.to, e.data.why]);
  t.deepEqual(statuses, [
    [null, 'online', 'proof'],
    ['online', 'error', 'health_report'],
    ['error', 'online', 'health_report'],
    ['online', 'warning', 'silence'],
    ['warning', 'offline', 'silence'],
  ]);
  const rejected = ok.find((e) => e.type === 'proof.rejected')!;
  t.is(rejected.data.code, refused.body.code);
  t.is(rejected.data.check, refused.body.check);
  t.is(rejected.data.detail, refused.body.detail, 'named as its 422 names it');
  t.false(JSON.stringify(rejected).includes('signature_b64'), 'no envelope in a refusal');
  const acceptedEvent = ok.find((e) => e.type === 'proof.accepted')!;
  t.like(acceptedEvent.data, { proof_id: accepted.body.proof_id, log_index: accepted.body.log_index, task_id: 'weld-7', robot_id: 'arm-1', run_id: 'r1' });
  // proof.logged checks offline against the log's key: the inclusion proof ends at a checkpoint it signed.
  const logged = ok.find((e) => e.type === 'proof.logged')!;
  const vkey = (await registry.call(null, 'GET', '/v1/log/key')).body.vkey as string;
  t.true(E.isRight(verifyInclusionAnswer(logged.data as never, vkey, hexToBytes(accepted.body.proof_id)!)));

  // The narrow endpoint got its one type; the feed holds what the webhook got; wallet B got nothing.
  await acceptedOnly.until((r) => r.length >= 1, 'proof.accepted');
  t.deepEqual(
    bodiesOf(acceptedOnly.received).map((b) => b.type),
    ['proof.accepted'],
  );
  const feed = await registry.call(WALLET_A, 'GET', '/v1/events?limit=200');
  // Webhooks make no promise of order (deliveries run side by side); the feed is in id order.
  t.deepEqual(
    feed.body.items.map((e: { id: string }) => e.id),
    [...ids].sort(),
  );
  t.deepEqual(other.received, []);
  t.deepEqual((await registry.call(WALLET_B, 'GET', '/v1/events')).body.items, []);
  const log = await registry.call(WALLET_A, 'GET', `/v1/webhooks/${created.body.endpoint_id}/deliveries?limit=200`);
  t.is(log.body.items.length, ids.length);
  // Succeeded, each at its last attempt: an attempt the loaded machine let time out is tried again (at least once).
  t.true(
    log.body.items.every(
      (d: { state: string; attempts: number; last_status_code: number }) => d.state === 'succeeded' && d.attempts >= 1 && d.last_status_code === 200,
    ),
  );
  t.is(
    (await registry.call(WALLET_B, 'GET', `/v1/webhooks/${created.body.endpoint_id}/deliveries`)).status,
    404,
    "another wallet's endpoint does not exist for it",
  );

  // Every answer, each event type's data included, is what the OpenAPI document says it is.
  const document = (await registry.call(null, 'GET', '/openapi.json')).body;
  const conforms = openApiConformance(document);
  const received = openApiWebhookConformance(document);
  t.deepEqual(
    all.received.map((r) => received('event', JSON.parse(r.body))).filter((p) => p !== null),
    [],
    'what receivers get is the documented webhook',
  );
  const detail = await registry.call(WALLET_A, 'GET', `/v1/webhooks/${created.body.endpoint_id}/deliveries/${log.body.items[0].delivery_id}`);
  t.is(detail.body.attempts_log.length, 1);
  const checks: Array<[string, string, number, unknown]> = [
    ['/v1/webhooks', 'post', 201, created.body],
    ['/v1/webhooks', 'get', 200, listed.body],
    ['/v1/events', 'get', 200, feed.body],
    ['/v1/webhooks/{endpoint_id}/deliveries', 'get', 200, log.body],
    ['/v1/webhooks/{endpoint_id}/deliveries/{delivery_id}', 'get', 200, detail.body],
    ...ok.map((e): [string, string, number, unknown] => ['/v1/events', 'get', 200, { items: [e], next_cursor: null, has_more: false }]),
  ];
  t.deepEqual(
    checks.map(([path, method, status, body]) => conforms(path, method, status, body)).filter((p) => p !== null),
    [],
  );
}
