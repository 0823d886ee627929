import test from 'ava';
import { byteOrder } from '../../src/adapters/random-ids.js';
import { cutoffsAt } from '../../src/domain/fleet/device-status.js';
import type { DeclareTest } from '../support/databases.js';
import { aReport } from '../support/fleet-mothers.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../support/mothers.js';
import { addProofs, MIN, T0, type FleetFixture } from './fleet-fixture.js';

/**
 * The DeviceStore contract (and the ProofActivityReader's), run against memory, SQLite and
 * PostgreSQL: devices made and counted by stored proofs, listed, renamed, reported on.
 * `make` returns empty stores; pass `test.serial` when they share a database.
 */
export function deviceStoreContract(name: string, make: () => Promise<FleetFixture>, testFn: DeclareTest = test): void {
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

  testFn(`${name}: rename sets the name and nothing else`, async (t) => {
    const { devices, proofs } = await make();
    await addProofs(proofs, WALLET_A, 'arm-1', 3);
    const before = await devices.getDevice(WALLET_A, 'arm-1');
    const renamed = await devices.renameDevice(WALLET_A, 'arm-1', 'Arm One ✓');
    t.deepEqual(renamed, { ...before!, name: 'Arm One ✓' });
    t.deepEqual(await devices.getDevice(WALLET_A, 'arm-1'), renamed);
    t.is(await devices.renameDevice(WALLET_A, 'nope', 'x'), null);
    t.is(await devices.getDevice(WALLET_A, 'nope'), null);
  });

  testFn(`${name}: health reports create the device, keep the latest, and are pruned to the limit`, async (t) => {
    const { devices, proofs } = await make();
    const report = aReport('degraded', T0 + 10, {
      cpuPercent: 97.5,
      memoryPercent: 0,
      batteryPercent: 100,
      temperatureC: -12.25,
      uptimeS: 3600.5,
      message: 'fan ✗',
      metrics: { fan_rpm: 0, 'disk.free': 1.5e9 },
    });
    const created = await devices.recordHealth(WALLET_A, 'cam-1', report, 3);
    t.deepEqual(created, {
      wallet: WALLET_A,
      deviceId: 'cam-1',
      name: null,
      groupId: null,
      firstSeenMs: T0 + 10,
      lastSeenMs: T0 + 10,
      lastProofAtMs: null,
      proofCount: 0,
      lastHealth: report,
      hiddenAtMs: null,
      sortOrder: null,
      description: null,
      deviceType: null,
    });
    // An older report (a slower request) joins the history but is not the last health.
    await devices.recordHealth(WALLET_A, 'cam-1', aReport('error', T0 + 5), 3);
    t.deepEqual((await devices.getDevice(WALLET_A, 'cam-1'))?.lastHealth, report);
    t.is((await devices.getDevice(WALLET_A, 'cam-1'))?.firstSeenMs, T0 + 5);
    for (let i = 1; i <= 4; i++) await devices.recordHealth(WALLET_A, 'cam-1', aReport('ok', T0 + 100 + i), 3);
    const history = await devices.healthHistory(WALLET_A, 'cam-1', 10);
    t.deepEqual(
      history.map((h) => h.receivedAtMs),
      [T0 + 104, T0 + 103, T0 + 102],
    );
    t.deepEqual(
      (await devices.healthHistory(WALLET_A, 'cam-1', 1)).map((h) => h.receivedAtMs),
      [T0 + 104],
    );
    const device = await devices.getDevice(WALLET_A, 'cam-1');
    t.is(device?.lastHealth?.status, 'ok');
    t.is(device?.lastSeenMs, T0 + 104);
    // Proofs after reports: the count starts at zero, the report stays.
    await addProofs(proofs, WALLET_A, 'cam-1', 2, 0, () => T0 + 50);
    const after = await devices.getDevice(WALLET_A, 'cam-1');
    t.is(after?.proofCount, 2);
    t.is(after?.lastSeenMs, T0 + 104);
    t.is(after?.lastProofAtMs, T0 + 50);
    t.is(after?.lastHealth?.receivedAtMs, T0 + 104);
  });

  testFn(`${name}: every reading of the ACTO SDK's metric set is kept and returned as sent`, async (t) => {
    const { devices } = await make();
    const report = aReport('degraded', T0 + 10, {
      statusDerived: true,
      cpuPercent: 12.5,
      cpuTemperatureC: 85,
      memoryUsedMb: 1024.5,
      memoryTotalMb: 4096,
      batteryCharging: false,
      batteryPercent: 56,
      diskPercent: 0,
      networkConnected: true,
      networkType: 'wifi ✓',
      uptimeS: 86_400,
      temperatureC: 41.25,
      customMetrics: { firmware: '1.2.3', gripper_ok: true, arm_ok: false, joints: 6, torque: -0.5, note: '' },
    });
    await devices.recordHealth(WALLET_A, 'r-1', report, 5);
    await devices.recordHealth(WALLET_A, 'r-1', aReport('ok', T0 + 20, { batteryCharging: true, networkConnected: false }), 5);
    const history = await devices.healthHistory(WALLET_A, 'r-1', 5);
    t.deepEqual(history[1], report);
    t.like(history[0], { batteryCharging: true, networkConnected: false, customMetrics: null, statusDerived: false });
    t.deepEqual((await devices.getDevice(WALLET_A, 'r-1'))?.lastHealth, history[0]);
    await devices.recordHealth(WALLET_A, 'r-1', { ...report, receivedAtMs: T0 + 30 }, 5);
    t.deepEqual((await devices.getDevice(WALLET_A, 'r-1'))?.lastHealth, { ...report, receivedAtMs: T0 + 30 });
  });

  testFn(`${name}: an edit sets the name, description and type given, and clears those given as null`, async (t) => {
    const { devices } = await make();
    await devices.recordHealth(WALLET_A, 'arm-1', aReport('ok', T0), 10);
    t.like(await devices.editDevice(WALLET_A, 'arm-1', { description: 'Left welder\nbay 3', deviceType: 'arm' }), {
      name: null,
      description: 'Left welder\nbay 3',
      deviceType: 'arm',
    });
    t.like(await devices.editDevice(WALLET_A, 'arm-1', { name: 'Welder' }), { name: 'Welder', description: 'Left welder\nbay 3', deviceType: 'arm' });
    t.like(await devices.editDevice(WALLET_A, 'arm-1', { description: null, deviceType: null }), { name: 'Welder', description: null, deviceType: null });
    t.like(await devices.getDevice(WALLET_A, 'arm-1'), { name: 'Welder', description: null, deviceType: null, proofCount: 0 });
    t.is(await devices.editDevice(WALLET_B, 'arm-1', { name: 'stolen' }), null);
    t.is(await devices.editDevice(WALLET_A, 'nope', { name: 'x' }), null);
  });

  testFn(`${name}: a hidden device leaves lists, counts and its group, keeps its proofs, and comes back with its next proof or report`, async (t) => {
    const { devices, groups, proofs } = await make();
    await addProofs(proofs, WALLET_A, 'arm-1', 2);
    await addProofs(proofs, WALLET_A, 'arm-2', 1, 10);
    const group = await groups.createGroup(WALLET_A, { name: 'bay', description: null, createdAtMs: T0 }, 10);
    if (group._tag !== 'Right') return t.fail();
    await groups.assignDevices(WALLET_A, group.right.groupId, ['arm-1', 'arm-2']);
    const cutoffs = cutoffsAt(T0, { onlineWindowMs: MIN, offlineAfterMs: 10 * MIN });
    t.is(await devices.hideDevice(WALLET_B, 'arm-1', T0 + 1), null);
    const hidden = await devices.hideDevice(WALLET_A, 'arm-1', T0 + 1);
    t.like(hidden, { hiddenAtMs: T0 + 1, groupId: null, proofCount: 2 });
    t.is((await devices.hideDevice(WALLET_A, 'arm-1', T0 + 2))?.hiddenAtMs, T0 + 1);
    t.deepEqual(
      (await devices.listDevices(WALLET_A, { limit: 50 })).items.map((d) => d.deviceId),
      ['arm-2'],
    );
    t.is(
      (await devices.deviceBuckets(WALLET_A, cutoffs)).reduce((n, b) => n + b.count, 0),
      1,
    );
    t.deepEqual((await groups.getGroup(WALLET_A, group.right.groupId))?.deviceIds, ['arm-2']);
    t.is((await proofs.search(WALLET_A, { robotId: 'arm-1', order: 'desc', limit: 10 })).items.length, 2);
    // Still readable by id, as hidden.
    t.like(await devices.getDevice(WALLET_A, 'arm-1'), { hiddenAtMs: T0 + 1 });
    // Its next proof shows it again (ungrouped), counted.
    await addProofs(proofs, WALLET_A, 'arm-1', 1, 20);
    t.like(await devices.getDevice(WALLET_A, 'arm-1'), { hiddenAtMs: null, proofCount: 3, groupId: null });
    t.deepEqual(
      (await devices.listDevices(WALLET_A, { limit: 50 })).items.map((d) => d.deviceId),
      ['arm-1', 'arm-2'],
    );
    // And so does its next health report.
    await devices.hideDevice(WALLET_A, 'arm-2', T0 + 3);
    t.deepEqual(
      (await devices.listDevices(WALLET_A, { limit: 50 })).items.map((d) => d.deviceId),
      ['arm-1'],
    );
    await devices.recordHealth(WALLET_A, 'arm-2', aReport('ok', T0 + 4), 10);
    t.like(await devices.getDevice(WALLET_A, 'arm-2'), { hiddenAtMs: null });
    t.is(
      (await devices.deviceBuckets(WALLET_A, cutoffs)).reduce((n, b) => n + b.count, 0),
      2,
    );
  });

  testFn(`${name}: devices list by their order, unordered ones last by id, in pages that cover each once`, async (t) => {
    const { devices } = await make();
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) await devices.recordHealth(WALLET_A, id, aReport('ok', T0), 10);
    t.deepEqual(
      await devices.orderDevices(WALLET_A, [
        { deviceId: 'e', sortOrder: 0 },
        { deviceId: 'ghost', sortOrder: 1 },
        { deviceId: 'b', sortOrder: 2 },
      ]),
      { unknown: ['ghost'], updated: 0 },
    );
    t.is((await devices.getDevice(WALLET_A, 'e'))?.sortOrder, null);
    t.deepEqual(
      await devices.orderDevices(WALLET_A, [
        { deviceId: 'e', sortOrder: 0 },
        { deviceId: 'c', sortOrder: 5 },
        { deviceId: 'b', sortOrder: 5 },
      ]),
      { unknown: [], updated: 3 },
    );
    t.deepEqual(await devices.orderDevices(WALLET_B, [{ deviceId: 'a', sortOrder: 0 }]), { unknown: ['a'], updated: 0 });
    const seen: string[] = [];
    let after: { afterDeviceId?: string; afterSortOrder?: number | null } = {};
    for (let i = 0; i < 6; i++) {
      const page = await devices.listDevices(WALLET_A, { limit: 2, ...after });
      seen.push(...page.items.map((d) => d.deviceId));
      if (page.next === null) break;
      const last = page.items[page.items.length - 1]!;
      after = { afterDeviceId: last.deviceId, afterSortOrder: last.sortOrder };
    }
    t.deepEqual(seen, ['e', 'b', 'c', 'a', 'd', 'f']);
    t.like(await devices.getDevice(WALLET_A, 'c'), { sortOrder: 5 });
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
