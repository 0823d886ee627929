import test from 'ava';
import { byteOrder } from '../../src/adapters/random-ids.js';
import { cutoffsAt } from '../../src/domain/fleet/device-status.js';
import type { DeclareTest } from '../support/databases.js';
import { aReport } from '../support/fleet-mothers.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../support/mothers.js';
import { addProofs, MIN, T0, type FleetFixture } from './fleet-fixture.js';

/**
 * The DeviceStore contract, devices made and counted by stored proofs and listed (and the
 * ProofActivityReader's windows). Memory, SQLite and PostgreSQL run it with
 * deviceStoreReportsContract and deviceStoreEditsContract. `make` returns empty stores; pass
 * `test.serial` when they share a database.
 */
export function deviceStoreProofsContract(name: string, make: () => Promise<FleetFixture>, testFn: DeclareTest = test): void {
  testFn(`${name}: a stored proof with a robot_id creates and counts its device; duplicates and id-less proofs do not`, async (t) => {
    const { devices, proofs } = await make();
    const first = aProofRecord(WALLET_A, { taskId: 'p1', robotId: 'arm-1' }, T0);
    await proofs.add(first);
    await proofs.add({ ...first, receivedAtMs: T0 + 5 * MIN });
    await proofs.add(aProofRecord(WALLET_A, { taskId: 'p2', robotId: 'arm-1' }, T0 + MIN));
    await proofs.add(aProofRecord(WALLET_A, { taskId: 'p3' }, T0));
    await proofs.add(aProofRecord(WALLET_A, { taskId: 'p4', robotId: 'x'.repeat(129) }, T0));
    t.deepEqual(await devices.getDevice(WALLET_A, 'arm-1'), {
      wallet: WALLET_A,
      deviceId: 'arm-1',
      name: null,
      groupId: null,
      firstSeenMs: T0,
      lastSeenMs: T0 + MIN,
      lastProofAtMs: T0 + MIN,
      proofCount: 2,
      lastHealth: null,
      hiddenAtMs: null,
      sortOrder: null,
      description: null,
      deviceType: null,
    });
    const page = await devices.listDevices(WALLET_A, { limit: 50 });
    t.deepEqual(
      page.items.map((d) => d.deviceId),
      ['arm-1'],
    );
  });

  testFn(`${name}: concurrent adds count every stored proof exactly once`, async (t) => {
    const { devices, proofs } = await make();
    const records = Array.from({ length: 40 }, (_, i) => aProofRecord(WALLET_A, { taskId: `c${i}`, robotId: i % 4 === 0 ? 'arm-2' : 'arm-1' }, T0 + i * 1000));
    // Every proof twice, all at once: only the stored copies count.
    const results = await Promise.all([...records, ...records].map((r) => proofs.add(r)));
    t.is(results.filter((r) => r.stored).length, 40);
    const one = await devices.getDevice(WALLET_A, 'arm-1');
    const two = await devices.getDevice(WALLET_A, 'arm-2');
    t.is(one?.proofCount, 30);
    t.is(two?.proofCount, 10);
    t.is(one?.lastSeenMs, T0 + 39_000);
    t.is(one?.firstSeenMs, T0 + 1000);
    t.is(two?.lastProofAtMs, T0 + 36_000);
  });

  testFn(`${name}: wallets are isolated`, async (t) => {
    const { devices, proofs } = await make();
    await addProofs(proofs, WALLET_A, 'arm-1', 2);
    await devices.recordHealth(WALLET_A, 'cam-1', aReport('ok', T0), 10);
    t.is(await devices.getDevice(WALLET_B, 'arm-1'), null);
    t.is(await devices.renameDevice(WALLET_B, 'arm-1', 'stolen'), null);
    t.deepEqual((await devices.listDevices(WALLET_B, { limit: 50 })).items, []);
    t.deepEqual(await devices.healthHistory(WALLET_B, 'cam-1', 10), []);
    t.deepEqual(await devices.deviceBuckets(WALLET_B, cutoffsAt(T0, { onlineWindowMs: MIN, offlineAfterMs: 10 * MIN })), []);
    // The same robot id in another wallet is another device.
    await addProofs(proofs, WALLET_B, 'arm-1', 1, 10);
    t.is((await devices.getDevice(WALLET_B, 'arm-1'))?.proofCount, 1);
    t.is((await devices.getDevice(WALLET_A, 'arm-1'))?.proofCount, 2);
    t.is((await devices.getDevice(WALLET_A, 'arm-1'))?.name, null);
  });

  testFn(`${name}: devices list by id in byte order, in pages that cover each once`, async (t) => {
    const { devices } = await make();
    const ids = ['z', 'a', 'B', 'é', 'e', 'ü-1', '😀', '\uffef', 'a-10', 'a-2', 'A', '0'];
    for (const id of ids) await devices.recordHealth(WALLET_A, id, aReport('ok', T0), 10);
    const seen: string[] = [];
    let after: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await devices.listDevices(WALLET_A, { limit: 5, ...(after !== undefined ? { afterDeviceId: after } : {}) });
      seen.push(...page.items.map((d) => d.deviceId));
      if (page.next === null) break;
      t.is(page.next, page.items[page.items.length - 1]!.deviceId);
      after = page.next;
    }
    t.deepEqual(seen, [...ids].sort(byteOrder));
    const exact = await devices.listDevices(WALLET_A, { limit: ids.length });
    t.is(exact.next, null);
  });

  testFn(`${name}: a window's count is every proof created from its start to now, both included, whatever the hours`, async (t) => {
    const { proofs, activity } = await make();
    const hour = 3_600_000;
    const now = Date.parse('2026-11-30T12:34:56.789Z');
    const since = [now - 86_400_000, now - 90 * MIN, now - 10 * MIN];
    const edges = since.flatMap((s) => [s - 1, s, s + 1, Math.ceil(s / hour) * hour - 1, Math.ceil(s / hour) * hour]);
    const created = [...edges, Math.floor(now / hour) * hour - 1, Math.floor(now / hour) * hour, now - 1, now, now + 1, now - 3 * hour];
    for (const [i, ms] of created.entries()) await proofs.add(aProofRecord(WALLET_A, { taskId: `w${i}`, createdAt: new Date(ms).toISOString() }));
    const { since: counted, total } = await activity.activity(WALLET_A, since, now);
    t.is(total, created.length);
    t.deepEqual(
      counted,
      since.map((s) => created.filter((ms) => ms >= s && ms <= now).length),
    );
  });

  testFn(`${name}: proof activity counts by created_at and returns the latest envelopes`, async (t) => {
    const { proofs, activity } = await make();
    const day = 86_400_000;
    const now = Date.parse('2026-11-30T00:00:00Z');
    const created = [now - 10 * day, now - 3 * day, now - 2 * day, now - day + 1, now - 5 * MIN, now - MIN, now + day];
    const records = created.map((ms, i) => aProofRecord(WALLET_A, { taskId: `s${i}`, createdAt: new Date(ms).toISOString() }));
    for (const r of records) await proofs.add(r);
    await proofs.add(aProofRecord(WALLET_B, { taskId: 'b', createdAt: new Date(now).toISOString() }));
    // The last one is dated a day ahead (a device clock off): in the total, in no window.
    t.deepEqual(await activity.activity(WALLET_A, [now - day, now - 7 * day], now), {
      total: 7,
      since: [3, 5],
      firstCreatedAtMs: created[0],
      lastCreatedAtMs: created[6],
    });
    t.deepEqual(await activity.activity('nobody', [now], now), { total: 0, since: [0], firstCreatedAtMs: null, lastCreatedAtMs: null });
    const latest = await activity.recentEnvelopes(WALLET_A, 2);
    t.deepEqual(latest, [records[6]!.envelope, records[5]!.envelope]);
    t.is((await activity.recentEnvelopes(WALLET_A, 100)).length, 7);
  });
}
