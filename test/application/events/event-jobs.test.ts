import test from 'ava';
import { MemoryCheckpointStore } from '../../../src/adapters/memory/memory-checkpoint-store.js';
import { MemoryDeviceAnnouncements } from '../../../src/adapters/memory/memory-device-announcements.js';
import { MemoryDeviceStore } from '../../../src/adapters/memory/memory-device-store.js';
import { MemoryFleet } from '../../../src/adapters/memory/memory-fleet.js';
import { MemoryEventLog } from '../../../src/adapters/memory/memory-event-log.js';
import { MemoryProofStore } from '../../../src/adapters/memory/memory-proof-store.js';
import { AnnounceLoggedProofs } from '../../../src/application/events/announce-logged-proofs.js';
import { SweepDeviceStatuses } from '../../../src/application/events/sweep-device-statuses.js';
import { keyCreated, webhookTest } from '../../../src/domain/events/announcements.js';
import { aCheckpoint } from '../../contracts/checkpoint-store.contract.js';
import { anEndpoint } from '../../contracts/webhook-store.contract.js';
import { aReport } from '../../support/fleet-mothers.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';
import { TestClock, webhookWorld } from './webhook-world.js';

const key = (wallet: string, atMs: number) =>
  keyCreated({
    keyId: `key_${atMs}`,
    wallet,
    name: 'k',
    prefix: 'pr_live_ab',
    createdAtMs: atMs,
    scopes: null,
    robotIds: null,
    expiresAtMs: null,
    disabledAtMs: null,
  });

test('the fan-out queues each event once for each enabled endpoint of its wallet that takes it and existed when it happened', async (t) => {
  const w = webhookWorld();
  const now = w.clock.now;
  const all = anEndpoint(WALLET_A, { eventTypes: null, createdAtMs: now - 10 });
  const keysOnly = anEndpoint(WALLET_A, { eventTypes: ['key.created'], createdAtMs: now - 10 });
  const proofsOnly = anEndpoint(WALLET_A, { eventTypes: ['proof.accepted'], createdAtMs: now - 10 });
  const late = anEndpoint(WALLET_A, { eventTypes: null, createdAtMs: now + 1 });
  const off = anEndpoint(WALLET_A, { eventTypes: null, createdAtMs: now - 10, enabled: false });
  const other = anEndpoint(WALLET_B, { eventTypes: null, createdAtMs: now - 10 });
  for (const e of [all, keysOnly, proofsOnly, late, off, other]) await w.endpoints.create(e, 20);
  await w.events.append([key(WALLET_A, now), webhookTest(WALLET_A, keysOnly.endpointId, now)]);
  t.is(await w.fanOut.execute(), 3);
  t.is(await w.fanOut.execute(), 0, 'the cursor moved: nothing twice');
  const queued = async (e: { endpointId: string; wallet: string }) =>
    (await w.queue.list(e.wallet, e.endpointId, { limit: 10 }))!.items.map((d) => d.eventType);
  t.deepEqual(await queued(all), ['key.created']);
  t.deepEqual((await queued(keysOnly)).sort(), ['key.created', 'webhook.test'], 'a test event only to its endpoint');
  t.deepEqual(await queued(proofsOnly), []);
  t.deepEqual(await queued(late), [], 'events from before it existed');
  t.deepEqual(await queued(other), []);
});

test('with no endpoint at all the fan-out only moves its cursor, so a new endpoint does not get the past', async (t) => {
  const w = webhookWorld();
  await w.events.append([key(WALLET_A, w.clock.now - 5), key(WALLET_A, w.clock.now - 4)]);
  t.is(await w.fanOut.execute(), 0);
  t.is(await w.queue.cursor('webhooks'), 2);
  const endpoint = anEndpoint(WALLET_A, { eventTypes: null, createdAtMs: 0 });
  await w.endpoints.create(endpoint, 20);
  t.is(await w.fanOut.execute(), 0);
});

test('proof.logged is announced once per wallet and proof, against the first checkpoint after it, and waits for one that covers it', async (t) => {
  const clock = new TestClock();
  const events = new MemoryEventLog();
  const proofs = new MemoryProofStore(undefined, undefined, events);
  const checkpoints = new MemoryCheckpointStore();
  const announce = new AnnounceLoggedProofs(events, checkpoints, clock, 2);
  const a = aProofRecord(WALLET_A, { taskId: 'a' });
  const b = aProofRecord(WALLET_A, { taskId: 'b' });
  await proofs.add(a); // leaf 0
  await proofs.add({ ...a, wallet: WALLET_B }); // the same proof in another wallet: leaf 0 too
  await proofs.add(b); // leaf 1
  t.is(await announce.execute(), 0, 'no checkpoint yet');
  await checkpoints.publish(aCheckpoint(1));
  t.is(await announce.execute(), 2, 'leaf 0 for both wallets; leaf 1 waits');
  await checkpoints.publish(aCheckpoint(5));
  t.is(await announce.execute(), 1);
  t.is(await announce.execute(), 0, 'nothing twice');
  const logged = (wallet: string) => events.walletEvents(wallet, 0, { types: ['proof.logged'], limit: 10 }).then((p) => p.items.map((e) => e.data));
  t.deepEqual(await logged(WALLET_A), [
    { proof_id: a.proofId, log_index: 0, tree_size: 1 },
    { proof_id: b.proofId, log_index: 1, tree_size: 5 },
  ]);
  t.deepEqual(await logged(WALLET_B), [{ proof_id: a.proofId, log_index: 0, tree_size: 1 }]);
});

test('the sweep announces online → warning → offline as time passes, adopts never-announced devices silently, and leaves recent ones alone', async (t) => {
  const clock = new TestClock(Date.parse('2026-12-05T10:00:00Z'));
  const fleet = new MemoryFleet();
  const devices = new MemoryDeviceStore(fleet);
  const sweep = new SweepDeviceStatuses(new MemoryDeviceAnnouncements(fleet), clock, { onlineWindowMs: 300_000, offlineAfterMs: 3_600_000 }, 2);
  fleet.proofStored(aProofRecord(WALLET_A, { robotId: 'arm-1' }, clock.now));
  await devices.recordHealth(WALLET_A, 'arm-2', aReport('error', clock.now), 10);
  fleet.proofStored(aProofRecord(WALLET_B, { robotId: 'cam-9' }, clock.now));
  fleet.touch(WALLET_A, 'legacy', clock.now - 7_200_000); // from before events: never announced
  const statuses = () =>
    fleet.events
      .walletEvents(WALLET_A, 0, { types: ['device.status_changed'], limit: 50 })
      .then((p) => p.items.map((e) => e.data as { device_id: string; from: string; to: string; why: string }));
  t.deepEqual(await sweep.execute(), { announced: 0, adopted: 1 });
  t.is(fleet.announced.get(`${WALLET_A}\u0000legacy`), 'offline');
  clock.now += 301_000;
  t.deepEqual(await sweep.execute(), { announced: 2, adopted: 0 }, 'arm-1 and cam-9 turn to warning; arm-2 stays error');
  clock.now += 3_600_000;
  t.deepEqual(await sweep.execute(), { announced: 3, adopted: 0 });
  t.deepEqual(await sweep.execute(), { announced: 0, adopted: 0 });
  t.deepEqual(
    (await statuses()).map((d) => [d.device_id, d.from, d.to, d.why]),
    [
      ['arm-1', null, 'online', 'proof'],
      ['arm-2', null, 'error', 'health_report'],
      ['arm-1', 'online', 'warning', 'silence'],
      ['arm-1', 'warning', 'offline', 'silence'],
      ['arm-2', 'error', 'offline', 'silence'],
    ],
  );
});
