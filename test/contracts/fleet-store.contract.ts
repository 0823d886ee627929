import test from 'ava';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import type { FleetStore } from '../../src/application/ports/fleet-store.js';
import type { ProofActivityReader } from '../../src/application/ports/proof-activity.js';
import type { ProofStore } from '../../src/application/ports/proof-store.js';
import { byteOrder } from '../../src/adapters/random-ids.js';
import { cutoffsAt, pairsWithStatus } from '../../src/domain/fleet/device-status.js';
import type { DeclareTest } from '../support/databases.js';
import { aReport } from '../support/fleet-mothers.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../support/mothers.js';

/** A fleet store with the proof store whose adds create and count its devices. */
export interface FleetFixture {
  readonly fleet: FleetStore;
  readonly proofs: ProofStore;
  readonly activity: ProofActivityReader;
}

const T0 = Date.parse('2026-11-21T00:00:00Z');
const MIN = 60_000;


/**
 * The FleetStore contract (and the ProofActivityReader's), run against memory, SQLite and
 * PostgreSQL. `make` returns empty stores; pass `test.serial` when they share a database.
 */
export function fleetStoreContract(name: string, make: () => Promise<FleetFixture>, testFn: DeclareTest = test): void {
  const addProofs = async (proofs: ProofStore, wallet: string, robotId: string | undefined, n: number, from = 0, receivedAt = (i: number) => T0 + i) => {
    for (let i = from; i < from + n; i++) await proofs.add(aProofRecord(wallet, { taskId: `${robotId ?? 'none'}-${i}`, ...(robotId !== undefined ? { robotId } : {}) }, receivedAt(i)));
  };

  testFn(`${name}: a stored proof with a robot_id creates and counts its device; duplicates and id-less proofs do not`, async (t) => {
    const { fleet, proofs } = await make();
    const first = aProofRecord(WALLET_A, { taskId: 'p1', robotId: 'arm-1' }, T0);
    await proofs.add(first);
    await proofs.add({ ...first, receivedAtMs: T0 + 5 * MIN });
    await proofs.add(aProofRecord(WALLET_A, { taskId: 'p2', robotId: 'arm-1' }, T0 + MIN));
    await proofs.add(aProofRecord(WALLET_A, { taskId: 'p3' }, T0));
    await proofs.add(aProofRecord(WALLET_A, { taskId: 'p4', robotId: 'x'.repeat(129) }, T0));
    t.deepEqual(await fleet.getDevice(WALLET_A, 'arm-1'), {
      wallet: WALLET_A,
      deviceId: 'arm-1',
      name: null,
      groupId: null,
      firstSeenMs: T0,
      lastSeenMs: T0 + MIN,
      lastProofAtMs: T0 + MIN,
      proofCount: 2,
      lastHealth: null,
    });
    const page = await fleet.listDevices(WALLET_A, { limit: 50 });
    t.deepEqual(page.items.map((d) => d.deviceId), ['arm-1']);
  });

  testFn(`${name}: concurrent adds count every stored proof exactly once`, async (t) => {
    const { fleet, proofs } = await make();
    const records = Array.from({ length: 40 }, (_, i) => aProofRecord(WALLET_A, { taskId: `c${i}`, robotId: i % 4 === 0 ? 'arm-2' : 'arm-1' }, T0 + i * 1000));
    // Every proof twice, all at once: only the stored copies count.
    const results = await Promise.all([...records, ...records].map((r) => proofs.add(r)));
    t.is(results.filter((r) => r.stored).length, 40);
    const one = await fleet.getDevice(WALLET_A, 'arm-1');
    const two = await fleet.getDevice(WALLET_A, 'arm-2');
    t.is(one?.proofCount, 30);
    t.is(two?.proofCount, 10);
    t.is(one?.lastSeenMs, T0 + 39_000);
    t.is(one?.firstSeenMs, T0 + 1000);
    t.is(two?.lastProofAtMs, T0 + 36_000);
  });

  testFn(`${name}: wallets are isolated`, async (t) => {
    const { fleet, proofs } = await make();
    await addProofs(proofs, WALLET_A, 'arm-1', 2);
    await fleet.recordHealth(WALLET_A, 'cam-1', aReport('ok', T0), 10);
    t.is(await fleet.getDevice(WALLET_B, 'arm-1'), null);
    t.is(await fleet.renameDevice(WALLET_B, 'arm-1', 'stolen'), null);
    t.deepEqual((await fleet.listDevices(WALLET_B, { limit: 50 })).items, []);
    t.deepEqual(await fleet.healthHistory(WALLET_B, 'cam-1', 10), []);
    t.deepEqual(await fleet.deviceBuckets(WALLET_B, cutoffsAt(T0, { onlineWindowMs: MIN, offlineAfterMs: 10 * MIN })), []);
    // The same robot id in another wallet is another device.
    await addProofs(proofs, WALLET_B, 'arm-1', 1, 10);
    t.is((await fleet.getDevice(WALLET_B, 'arm-1'))?.proofCount, 1);
    t.is((await fleet.getDevice(WALLET_A, 'arm-1'))?.proofCount, 2);
    t.is((await fleet.getDevice(WALLET_A, 'arm-1'))?.name, null);
  });

  testFn(`${name}: devices list by id in byte order, in pages that cover each once`, async (t) => {
    const { fleet } = await make();
    const ids = ['z', 'a', 'B', 'é', 'e', 'ü-1', '😀', '\uffef', 'a-10', 'a-2', 'A', '0'];
    for (const id of ids) await fleet.recordHealth(WALLET_A, id, aReport('ok', T0), 10);
    const seen: string[] = [];
    let after: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await fleet.listDevices(WALLET_A, { limit: 5, ...(after !== undefined ? { afterDeviceId: after } : {}) });
      seen.push(...page.items.map((d) => d.deviceId));
      if (page.next === null) break;
      t.is(page.next, page.items[page.items.length - 1]!.deviceId);
      after = page.next;
    }
    t.deepEqual(seen, [...ids].sort(byteOrder));
    const exact = await fleet.listDevices(WALLET_A, { limit: ids.length });
    t.is(exact.next, null);
  });

  testFn(`${name}: devices filter by group and by derived state`, async (t) => {
    const { fleet, proofs } = await make();
    const windows = { onlineWindowMs: 5 * MIN, offlineAfterMs: 60 * MIN };
    const now = T0 + 100 * MIN;
    await addProofs(proofs, WALLET_A, 'fresh', 1, 0, () => now - MIN); // online
    await addProofs(proofs, WALLET_A, 'idle', 1, 0, () => now - 30 * MIN); // warning
    await addProofs(proofs, WALLET_A, 'gone', 1, 0, () => now - 90 * MIN); // offline
    await fleet.recordHealth(WALLET_A, 'sick', aReport('error', now - 2 * MIN), 10); // error
    await fleet.recordHealth(WALLET_A, 'slow', aReport('degraded', now - 20 * MIN), 10); // degraded
    await fleet.recordHealth(WALLET_A, 'dead', aReport('error', now - 61 * MIN), 10); // offline
    const group = await fleet.createGroup(WALLET_A, { name: 'g', description: null, createdAtMs: T0 }, 10);
    if (!isRight(group)) return t.fail();
    await fleet.assignDevices(WALLET_A, group.right.groupId, ['idle', 'sick']);
    const ids = async (q: Parameters<FleetStore['listDevices']>[1]) => (await fleet.listDevices(WALLET_A, q)).items.map((d) => d.deviceId);
    const states = (...s: Parameters<typeof pairsWithStatus>[0]) => ({ cutoffs: cutoffsAt(now, windows), pairs: pairsWithStatus(s) });
    t.deepEqual(await ids({ limit: 50, groupId: group.right.groupId }), ['idle', 'sick']);
    t.deepEqual(await ids({ limit: 50, groupId: null }), ['dead', 'fresh', 'gone', 'slow']);
    t.deepEqual(await ids({ limit: 50, states: states('online') }), ['fresh']);
    t.deepEqual(await ids({ limit: 50, states: states('warning') }), ['idle']);
    t.deepEqual(await ids({ limit: 50, states: states('offline') }), ['dead', 'gone']);
    t.deepEqual(await ids({ limit: 50, states: states('error', 'degraded') }), ['sick', 'slow']);
    t.deepEqual(await ids({ limit: 50, states: states() }), []);
    t.deepEqual(await ids({ limit: 50, groupId: null, states: states('offline') }), ['dead', 'gone']);
    t.deepEqual(await ids({ limit: 1, afterDeviceId: 'dead', states: states('offline') }), ['gone']);
    const buckets = await fleet.deviceBuckets(WALLET_A, cutoffsAt(now, windows));
    const sorted = [...buckets].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    t.deepEqual(
      sorted,
      [
        { groupId: group.right.groupId, activity: 'idle', health: 'none', count: 1 },
        { groupId: group.right.groupId, activity: 'recent', health: 'error', count: 1 },
        { groupId: null, activity: 'idle', health: 'degraded', count: 1 },
        { groupId: null, activity: 'recent', health: 'none', count: 1 },
        { groupId: null, activity: 'silent', health: 'error', count: 1 },
        { groupId: null, activity: 'silent', health: 'none', count: 1 },
      ].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    );
    await fleet.recordHealth(WALLET_B, 'other', aReport('ok', now), 10);
    const all = await fleet.deviceBuckets(null, cutoffsAt(now, windows));
    t.is(all.reduce((n, b) => n + b.count, 0), 7);
  });

  testFn(`${name}: rename sets the name and nothing else`, async (t) => {
    const { fleet, proofs } = await make();
    await addProofs(proofs, WALLET_A, 'arm-1', 3);
    const before = await fleet.getDevice(WALLET_A, 'arm-1');
    const renamed = await fleet.renameDevice(WALLET_A, 'arm-1', 'Arm One ✓');
    t.deepEqual(renamed, { ...before!, name: 'Arm One ✓' });
    t.deepEqual(await fleet.getDevice(WALLET_A, 'arm-1'), renamed);
    t.is(await fleet.renameDevice(WALLET_A, 'nope', 'x'), null);
    t.is(await fleet.getDevice(WALLET_A, 'nope'), null);
  });

  testFn(`${name}: health reports create the device, keep the latest, and are pruned to the limit`, async (t) => {
    const { fleet, proofs } = await make();
    const report = aReport('degraded', T0 + 10, { cpuPercent: 97.5, memoryPercent: 0, batteryPercent: 100, temperatureC: -12.25, uptimeS: 3600.5, message: 'fan ✗', metrics: { fan_rpm: 0, 'disk.free': 1.5e9 } });
    const created = await fleet.recordHealth(WALLET_A, 'cam-1', report, 3);
    t.deepEqual(created, { wallet: WALLET_A, deviceId: 'cam-1', name: null, groupId: null, firstSeenMs: T0 + 10, lastSeenMs: T0 + 10, lastProofAtMs: null, proofCount: 0, lastHealth: report });
    // An older report (a slower request) joins the history but is not the last health.
    await fleet.recordHealth(WALLET_A, 'cam-1', aReport('error', T0 + 5), 3);
    t.deepEqual((await fleet.getDevice(WALLET_A, 'cam-1'))?.lastHealth, report);
    t.is((await fleet.getDevice(WALLET_A, 'cam-1'))?.firstSeenMs, T0 + 5);
    for (let i = 1; i <= 4; i++) await fleet.recordHealth(WALLET_A, 'cam-1', aReport('ok', T0 + 100 + i), 3);
    const history = await fleet.healthHistory(WALLET_A, 'cam-1', 10);
    t.deepEqual(history.map((h) => h.receivedAtMs), [T0 + 104, T0 + 103, T0 + 102]);
    t.deepEqual((await fleet.healthHistory(WALLET_A, 'cam-1', 1)).map((h) => h.receivedAtMs), [T0 + 104]);
    const device = await fleet.getDevice(WALLET_A, 'cam-1');
    t.is(device?.lastHealth?.status, 'ok');
    t.is(device?.lastSeenMs, T0 + 104);
    // Proofs after reports: the count starts at zero, the report stays.
    await addProofs(proofs, WALLET_A, 'cam-1', 2, 0, () => T0 + 50);
    const after = await fleet.getDevice(WALLET_A, 'cam-1');
    t.is(after?.proofCount, 2);
    t.is(after?.lastSeenMs, T0 + 104);
    t.is(after?.lastProofAtMs, T0 + 50);
    t.is(after?.lastHealth?.receivedAtMs, T0 + 104);
  });

  testFn(`${name}: groups are created once per name and wallet, up to the limit`, async (t) => {
    const { fleet } = await make();
    const a = await fleet.createGroup(WALLET_A, { name: 'Lyon', description: 'north site', createdAtMs: T0 }, 2);
    if (!isRight(a)) return t.fail();
    t.like(a.right, { wallet: WALLET_A, name: 'Lyon', description: 'north site', createdAtMs: T0 });
    t.regex(a.right.groupId, /^grp_[0-9a-f]{24}$/);
    t.deepEqual(await fleet.createGroup(WALLET_A, { name: 'Lyon', description: null, createdAtMs: T0 }, 2), { _tag: 'Left', left: { _tag: 'GroupNameTaken', name: 'Lyon' } });
    t.true(isRight(await fleet.createGroup(WALLET_A, { name: 'lyon', description: null, createdAtMs: T0 }, 2)));
    t.deepEqual(await fleet.createGroup(WALLET_A, { name: 'Paris', description: null, createdAtMs: T0 }, 2), { _tag: 'Left', left: { _tag: 'GroupLimitReached', limit: 2 } });
    t.true(isRight(await fleet.createGroup(WALLET_B, { name: 'Lyon', description: null, createdAtMs: T0 }, 2)));
    t.is(await fleet.countGroups(WALLET_A), 2);
    t.is(await fleet.countGroups(WALLET_B), 1);
    t.deepEqual(await fleet.getGroup(WALLET_A, a.right.groupId), { ...a.right, deviceCount: 0, deviceIds: [] });
    t.is(await fleet.getGroup(WALLET_B, a.right.groupId), null);
  });

  testFn(`${name}: concurrent creates of one name make one group`, async (t) => {
    const { fleet } = await make();
    const results = await Promise.all(Array.from({ length: 8 }, () => fleet.createGroup(WALLET_A, { name: 'same', description: null, createdAtMs: T0 }, 100)));
    t.is(results.filter(isRight).length, 1);
    t.is(await fleet.countGroups(WALLET_A), 1);
  });

  testFn(`${name}: groups list by name in pages, with their devices`, async (t) => {
    const { fleet } = await make();
    const names = ['b', 'A', 'é', 'a', 'c'];
    const made: Record<string, string> = {};
    for (const n of names) {
      const g = await fleet.createGroup(WALLET_A, { name: n, description: null, createdAtMs: T0 }, 10);
      if (isRight(g)) made[n] = g.right.groupId;
    }
    for (const id of ['d2', 'd1', 'd3']) await fleet.recordHealth(WALLET_A, id, aReport('ok', T0), 10);
    await fleet.assignDevices(WALLET_A, made['b']!, ['d2', 'd1']);
    await fleet.assignDevices(WALLET_A, made['c']!, ['d3']);
    const first = await fleet.listGroups(WALLET_A, { limit: 3, withDeviceIds: true });
    t.deepEqual(first.items.map((g) => g.name), ['A', 'a', 'b']);
    t.is(first.next, 'b');
    t.deepEqual(first.items[2]!.deviceIds, ['d1', 'd2']);
    t.is(first.items[2]!.deviceCount, 2);
    t.deepEqual(first.items[0]!.deviceIds, []);
    const second = await fleet.listGroups(WALLET_A, { limit: 3, afterName: 'b', withDeviceIds: false });
    t.deepEqual(second.items.map((g) => [g.name, g.deviceCount, g.deviceIds]), [['c', 1, null], ['é', 0, null]]);
    t.is(second.next, null);
    t.deepEqual((await fleet.listGroups(WALLET_B, { limit: 3, withDeviceIds: true })).items, []);
  });

  testFn(`${name}: assign moves devices into one group, all or nothing`, async (t) => {
    const { fleet, proofs } = await make();
    await addProofs(proofs, WALLET_A, 'arm-1', 1);
    await addProofs(proofs, WALLET_A, 'arm-2', 1, 5);
    await fleet.recordHealth(WALLET_A, 'cam-1', aReport('ok', T0), 10);
    await addProofs(proofs, WALLET_B, 'b-arm', 1, 9);
    const g1 = await fleet.createGroup(WALLET_A, { name: 'one', description: null, createdAtMs: T0 }, 10);
    const g2 = await fleet.createGroup(WALLET_A, { name: 'two', description: null, createdAtMs: T0 }, 10);
    const gb = await fleet.createGroup(WALLET_B, { name: 'b', description: null, createdAtMs: T0 }, 10);
    if (!isRight(g1) || !isRight(g2) || !isRight(gb)) return t.fail();
    const one = g1.right.groupId;
    const two = g2.right.groupId;
    const moved = await fleet.assignDevices(WALLET_A, one, ['arm-1', 'cam-1']);
    if (!isRight(moved)) return t.fail();
    t.is(moved.right.changed, 2);
    t.deepEqual(moved.right.group.deviceIds, ['arm-1', 'cam-1']);
    // Into another group: out of the first. Already-members do not count as changed.
    const again = await fleet.assignDevices(WALLET_A, two, ['cam-1', 'arm-2']);
    if (!isRight(again)) return t.fail();
    t.is(again.right.changed, 2);
    t.is((await fleet.assignDevices(WALLET_A, two, ['cam-1']) as { right: { changed: number } }).right.changed, 0);
    t.deepEqual((await fleet.getGroup(WALLET_A, one))?.deviceIds, ['arm-1']);
    t.is((await fleet.getDevice(WALLET_A, 'cam-1'))?.groupId, two);
    // Unknown ids (and another wallet's devices are unknown): named, and nothing changes.
    t.deepEqual(await fleet.assignDevices(WALLET_A, one, ['zz', 'arm-2', 'b-arm']), { _tag: 'Left', left: { _tag: 'UnknownDevices', deviceIds: ['zz', 'b-arm'] } });
    t.is((await fleet.getDevice(WALLET_A, 'arm-2'))?.groupId, two);
    // Another wallet's group does not exist; nor can it receive this wallet's devices.
    t.deepEqual(await fleet.assignDevices(WALLET_A, gb.right.groupId, ['arm-1']), { _tag: 'Left', left: { _tag: 'GroupNotFound', groupId: gb.right.groupId } });
    const intoB = await fleet.assignDevices(WALLET_B, gb.right.groupId, ['arm-1']);
    t.true(isLeft(intoB) && intoB.left._tag === 'UnknownDevices');
    t.is((await fleet.getDevice(WALLET_A, 'arm-1'))?.groupId, one);
    t.deepEqual(await fleet.assignDevices(WALLET_A, 'grp_missing', ['arm-1']), { _tag: 'Left', left: { _tag: 'GroupNotFound', groupId: 'grp_missing' } });
  });

  testFn(`${name}: unassign takes only the group's own members out`, async (t) => {
    const { fleet } = await make();
    for (const id of ['d1', 'd2', 'd3']) await fleet.recordHealth(WALLET_A, id, aReport('ok', T0), 10);
    const g1 = await fleet.createGroup(WALLET_A, { name: 'one', description: null, createdAtMs: T0 }, 10);
    const g2 = await fleet.createGroup(WALLET_A, { name: 'two', description: null, createdAtMs: T0 }, 10);
    if (!isRight(g1) || !isRight(g2)) return t.fail();
    await fleet.assignDevices(WALLET_A, g1.right.groupId, ['d1', 'd2']);
    await fleet.assignDevices(WALLET_A, g2.right.groupId, ['d3']);
    const out = await fleet.unassignDevices(WALLET_A, g1.right.groupId, ['d1', 'd3']);
    if (!isRight(out)) return t.fail();
    t.is(out.right.changed, 1);
    t.deepEqual(out.right.group.deviceIds, ['d2']);
    t.is((await fleet.getDevice(WALLET_A, 'd3'))?.groupId, g2.right.groupId);
    t.is((await fleet.getDevice(WALLET_A, 'd1'))?.groupId, null);
    t.deepEqual(await fleet.unassignDevices(WALLET_A, g1.right.groupId, ['d2', 'nope']), { _tag: 'Left', left: { _tag: 'UnknownDevices', deviceIds: ['nope'] } });
    t.is((await fleet.getDevice(WALLET_A, 'd2'))?.groupId, g1.right.groupId);
    t.true(isLeft(await fleet.unassignDevices(WALLET_B, g1.right.groupId, ['d2'])));
  });

  testFn(`${name}: deleting a group unassigns its devices and deletes nothing else`, async (t) => {
    const { fleet, proofs } = await make();
    await addProofs(proofs, WALLET_A, 'arm-1', 2);
    await fleet.recordHealth(WALLET_A, 'arm-1', aReport('ok', T0 + 10), 10);
    await fleet.recordHealth(WALLET_A, 'cam-1', aReport('ok', T0), 10);
    const g = await fleet.createGroup(WALLET_A, { name: 'one', description: null, createdAtMs: T0 }, 10);
    if (!isRight(g)) return t.fail();
    await fleet.assignDevices(WALLET_A, g.right.groupId, ['arm-1', 'cam-1']);
    t.is(await fleet.deleteGroup(WALLET_B, g.right.groupId), null);
    t.deepEqual(await fleet.deleteGroup(WALLET_A, g.right.groupId), { unassigned: 2 });
    t.is(await fleet.getGroup(WALLET_A, g.right.groupId), null);
    t.is(await fleet.deleteGroup(WALLET_A, g.right.groupId), null);
    const arm = await fleet.getDevice(WALLET_A, 'arm-1');
    t.like(arm, { groupId: null, proofCount: 2 });
    t.is((await fleet.healthHistory(WALLET_A, 'arm-1', 10)).length, 1);
    t.is((await proofs.search(WALLET_A, { order: 'asc', limit: 10 })).items.length, 2);
    // The name is free again.
    t.true(isRight(await fleet.createGroup(WALLET_A, { name: 'one', description: null, createdAtMs: T0 }, 10)));
  });

  testFn(`${name}: proofs, reports and group changes racing each other keep every figure`, async (t) => {
    const { fleet, proofs } = await make();
    const ids = Array.from({ length: 12 }, (_, i) => `bot-${String(i).padStart(2, '0')}`);
    for (const id of ids) await fleet.recordHealth(WALLET_A, id, aReport('ok', T0), 5);
    const g = await fleet.createGroup(WALLET_A, { name: 'race', description: null, createdAtMs: T0 }, 10);
    if (!isRight(g)) return t.fail();
    const groupId = g.right.groupId;
    const records = Array.from({ length: 120 }, (_, i) => aProofRecord(WALLET_A, { taskId: `r${i}`, robotId: ids[(i * 7) % ids.length]! }, T0 + i));
    const reversed = [...ids].reverse();
    await Promise.all([
      ...records.map((r) => proofs.add(r)),
      ...ids.map((id, i) => fleet.recordHealth(WALLET_A, id, aReport(i % 2 ? 'ok' : 'degraded', T0 + 1000 + i), 5)),
      fleet.assignDevices(WALLET_A, groupId, reversed),
      fleet.unassignDevices(WALLET_A, groupId, ids.slice(0, 6)),
      fleet.assignDevices(WALLET_A, groupId, ids.slice(3)),
    ]);
    const devices = (await fleet.listDevices(WALLET_A, { limit: 50 })).items;
    t.is(devices.reduce((n, d) => n + d.proofCount, 0), 120);
    t.true(devices.every((d) => d.proofCount === 10));
    t.true(devices.every((d, i) => d.lastHealth?.receivedAtMs === T0 + 1000 + i));
    t.deepEqual(await fleet.deleteGroup(WALLET_A, groupId), { unassigned: devices.filter((d) => d.groupId === groupId).length });
  });

  testFn(`${name}: heavy races between proofs, reports, group changes and deletes all succeed`, async (t) => {
    // A regression check, so probabilistic: when a health report wrote its device row twice
    // (PostgreSQL then re-checks the group foreign key) and group changes locked FOR UPDATE,
    // this deadlocked in about a third of the runs.
    const { fleet, proofs } = await make();
    const ids = Array.from({ length: 200 }, (_, i) => `dev-${i}`);
    for (const id of ids) await fleet.recordHealth(WALLET_A, id, aReport('ok', T0), 5);
    const groups: string[] = [];
    for (let g = 0; g < 4; g++) {
      const made = await fleet.createGroup(WALLET_A, { name: `g${g}`, description: null, createdAtMs: T0 }, 10);
      if (isRight(made)) groups.push(made.right.groupId);
    }
    const records = Array.from({ length: 2000 }, (_, i) => aProofRecord(WALLET_A, { taskId: `h${i}`, robotId: ids[(i * 13) % ids.length]! }, T0 + i));
    const rotated = (k: number) => [...ids.slice((k * 37) % 200), ...ids.slice(0, (k * 37) % 200)].reverse();
    const settled = await Promise.allSettled([
      ...records.map((r) => proofs.add(r)),
      ...Array.from({ length: 40 }, (_, k) =>
        k % 3 === 2 ? fleet.unassignDevices(WALLET_A, groups[k % 4]!, rotated(k)) : fleet.assignDevices(WALLET_A, groups[k % 4]!, rotated(k).slice(0, 120)),
      ),
      ...ids.map((id, i) => fleet.recordHealth(WALLET_A, id, aReport('degraded', T0 + 1000 + i), 5)),
      ...ids.map((id, i) => fleet.recordHealth(WALLET_A, id, aReport('error', T0 + 500 + i), 5)),
      fleet.deleteGroup(WALLET_A, groups[3]!),
      fleet.deleteGroup(WALLET_A, groups[2]!),
    ]);
    const failed = settled.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    t.deepEqual(failed.map((f) => String(f.reason)), []);
    const devices = (await fleet.listDevices(WALLET_A, { limit: 200 })).items;
    t.is(devices.reduce((n, d) => n + d.proofCount, 0), 2000);
    t.true(devices.every((d) => d.lastHealth?.status === 'degraded' && d.lastHealth.receivedAtMs === T0 + 1000 + Number(d.deviceId.slice(4))));
    t.true(devices.every((d) => d.groupId === null || d.groupId === groups[0] || d.groupId === groups[1]));
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
