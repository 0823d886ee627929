import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeEd25519 } from '../../../../src/adapters/crypto/node-ed25519.js';
import { keyFileOf, keyFileText } from '../../../../src/adapters/cli/key-file.js';
import { childRegistry } from '../../../support/child-registry.js';
import { postgresSchemaUrl } from '../../../support/databases.js';
import { anEnvelope, WALLET_A, WALLET_B } from '../../../support/mothers.js';
import { openStream } from '../../../support/sse-client.js';
import { authHeaders } from '../../../support/test-authenticator.js';
import { bodiesOf, startReceiver } from '../../../support/webhook-receiver.js';

// The registry in processes of its own, killed and restarted: what events promise across crashes.

const EVENTS_ENV = { WEBHOOK_ALLOW_PRIVATE: '1', EVENT_POLL_MS: '20', WEBHOOK_TIMEOUT_MS: '1000' };

async function post(url: string, wallet: string, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { ...authHeaders(wallet), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const databaseFor = async (t: Parameters<typeof postgresSchemaUrl>[0], dialect: 'sqlite' | 'postgres', dir: string) =>
  dialect === 'sqlite' ? `sqlite:${join(dir, 'registry.sqlite')}` : (await postgresSchemaUrl(t, 'events_crash')).url;

for (const dialect of ['sqlite', 'postgres'] as const) {
  test.serial(`${dialect}: kill -9 mid-delivery loses no event; the retry after the restart carries the same webhook-id`, async (t) => {
    t.timeout(300_000);
    const dir = mkdtempSync(join(tmpdir(), 'events-crash-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const env = { DATABASE_URL: await databaseFor(t, dialect, dir), DATA_DIR: dir, ...EVENTS_ENV };
    const receiver = await startReceiver(t);
    // Every attempt of the first process hangs: it dies with them in flight.
    receiver.answer = () => 'hang';
    let server = await childRegistry(t, env);
    t.is((await post(server.url, WALLET_A, '/v1/webhooks', { url: receiver.url, event_types: ['proof.accepted'] })).status, 201);
    const proofIds: string[] = [];
    for (let i = 0; i < 3; i++)
      proofIds.push((await post(server.url, WALLET_A, '/v1/proofs', { envelope: anEnvelope({ taskId: `crash-${i}` }) })).body.proof_id as string);
    await receiver.until((r) => r.length >= 3, 'the three first attempts');
    const firstIds = bodiesOf(receiver.received).map((b) => b.id);
    await server.kill9();
    receiver.answer = () => 200;
    server = await childRegistry(t, env);
    // The dead instance's claims run out (its deadline and time to record), then they are sent again.
    await receiver.until((r) => r.length >= 6, 'the three events again', 60_000);
    const again = receiver.received.slice(3);
    t.deepEqual(again.map((r) => r.headers['webhook-id']).sort(), [...firstIds].sort(), 'the same ids, retried');
    t.deepEqual(
      bodiesOf(again)
        .map((b) => b.data.proof_id)
        .sort(),
      [...proofIds].sort(),
      'every acknowledged proof announced',
    );
    await server.stop();
  });

  test.serial(`${dialect}: a stream resumed from Last-Event-ID after a restart misses nothing and repeats nothing`, async (t) => {
    t.timeout(300_000);
    const dir = mkdtempSync(join(tmpdir(), 'events-resume-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const env = { DATABASE_URL: await databaseFor(t, dialect, dir), DATA_DIR: dir, ...EVENTS_ENV };
    let server = await childRegistry(t, env);
    const first = await openStream(server.url, WALLET_A, { query: '?types=proof.accepted' });
    t.is(first.status, 200);
    for (let i = 0; i < 2; i++) await post(server.url, WALLET_A, '/v1/proofs', { envelope: anEnvelope({ taskId: `before-${i}` }) });
    await first.waitFor(2);
    await server.stop();
    await first.ended; // the stream ends cleanly when the service stops
    server = await childRegistry(t, env);
    const later: string[] = [];
    for (let i = 0; i < 3; i++)
      later.push((await post(server.url, WALLET_A, '/v1/proofs', { envelope: anEnvelope({ taskId: `after-${i}` }) })).body.proof_id as string);
    const resumed = await openStream(server.url, WALLET_A, { lastEventId: first.events[1]!.id, query: '?types=proof.accepted' });
    await resumed.waitFor(3);
    post(server.url, WALLET_A, '/v1/proofs', { envelope: anEnvelope({ taskId: 'live' }) }).catch(() => undefined);
    await resumed.waitFor(4);
    t.deepEqual(
      resumed.events.slice(0, 3).map((e) => e.data.proof_id),
      later,
    );
    t.is(resumed.events[3]!.data.task_id, 'live');
    const ids = [...first.events, ...resumed.events].map((e) => e.id);
    t.deepEqual(ids, [...ids].sort(), 'in id order');
    t.is(new Set(ids).size, ids.length, 'none twice');
    resumed.close();
    await server.stop();
  });
}

test.serial('postgres: two instances on one database deliver each event once, whichever takes the proof', async (t) => {
  t.timeout(300_000);
  const dir = mkdtempSync(join(tmpdir(), 'events-two-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const { url } = await postgresSchemaUrl(t, 'events_two');
  const keyFile = join(dir, 'log-key.json');
  writeFileSync(keyFile, keyFileText(keyFileOf(new Uint8Array(32).fill(7), new NodeEd25519())), { mode: 0o600 });
  const env = (name: string) => ({ DATABASE_URL: url, DATA_DIR: join(dir, name), LOG_SIGNING_KEY_FILE: keyFile, ...EVENTS_ENV });
  const [one, two] = [await childRegistry(t, env('one')), await childRegistry(t, env('two'))];
  const receiver = await startReceiver(t);
  t.is((await post(one.url, WALLET_A, '/v1/webhooks', { url: receiver.url, event_types: ['proof.accepted', 'proof.logged'] })).status, 201);
  // A stream on either instance hears what both take; another wallet's stream hears none of it.
  const streamOnTwo = await openStream(two.url, WALLET_A, { query: '?types=proof.accepted' });
  const otherWallet = await openStream(one.url, WALLET_B);
  const proofs = 30;
  await Promise.all(
    Array.from({ length: proofs }, (_, i) => post(i % 2 ? one.url : two.url, WALLET_A, '/v1/proofs', { envelope: anEnvelope({ taskId: `two-${i}` }) })),
  );
  const count = (type: string) =>
    new Set(
      bodiesOf(receiver.received)
        .filter((b) => b.type === type)
        .map((b) => b.id),
    ).size;
  await receiver.until(() => count('proof.accepted') === proofs && count('proof.logged') === proofs, 'every proof accepted and logged');
  // Every delivery is recorded before the count is final: none is still in flight to arrive twice.
  const endpoint = ((await (await fetch(`${one.url}/v1/webhooks`, { headers: authHeaders(WALLET_A) })).json()) as { items: Array<{ endpoint_id: string }> })
    .items[0]!.endpoint_id;
  for (;;) {
    const pending = (await (await fetch(`${two.url}/v1/webhooks/${endpoint}/deliveries?state=pending`, { headers: authHeaders(WALLET_A) })).json()) as {
      items: unknown[];
    };
    if (pending.items.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Once per success: a webhook-id arrives again only after an attempt that failed (a receiver
  // slower than the deadline on a loaded machine), never because both instances sent it.
  const deliveries = (await (await fetch(`${one.url}/v1/webhooks/${endpoint}/deliveries?limit=200`, { headers: authHeaders(WALLET_A) })).json()) as {
    items: Array<{ event_id: string; state: string; attempts: number }>;
  };
  t.is(deliveries.items.length, 2 * proofs);
  t.true(
    deliveries.items.every((d) => d.state === 'succeeded'),
    'every delivery succeeded',
  );
  const received = new Map<string, number>();
  for (const r of receiver.received) received.set(String(r.headers['webhook-id']), (received.get(String(r.headers['webhook-id'])) ?? 0) + 1);
  t.is(received.size, 2 * proofs, 'every event arrived');
  for (const d of deliveries.items) {
    const got = received.get(d.event_id) ?? 0;
    t.true(got >= 1 && got <= d.attempts, `${d.event_id}: ${got} arrivals for ${d.attempts} attempts`);
  }
  const firstTime = deliveries.items.filter((d) => d.attempts === 1);
  t.true(
    firstTime.every((d) => received.get(d.event_id) === 1),
    'a delivery that succeeded at its first attempt arrived once',
  );
  await streamOnTwo.waitFor(proofs);
  t.deepEqual(streamOnTwo.events.map((e) => e.data.task_id).sort(), Array.from({ length: proofs }, (_, i) => `two-${i}`).sort());
  t.deepEqual(otherWallet.events, []);
  streamOnTwo.close();
  otherWallet.close();
  await Promise.all([one.stop(), two.stop()]);
});
