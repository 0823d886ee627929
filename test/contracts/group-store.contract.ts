import test from 'ava';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import type { DeviceStore } from '../../src/application/ports/device-store.js';
import { cutoffsAt, pairsWithStatus } from '../../src/domain/fleet/device-status.js';
import type { DeclareTest } from '../support/databases.js';
import { aReport } from '../support/fleet-mothers.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../support/mothers.js';
import { addProofs, MIN, T0, type FleetFixture } from './fleet-fixture.js';

/**
 * The GroupStore contract, run against memory, SQLite and PostgreSQL: groups, their members,
 * and what groups do to the device lists and figures, also when proofs, reports and group
 * changes race. `make` returns empty stores; pass `test.serial` when they share a database.
 */
export function groupStoreContract(name: string, make: () => Promise<FleetFixture>, testFn: DeclareTest = test): void {
  testFn(`${name}: devices filter by group and by derived state`, async (t) => {
    const { devices, groups, proofs } = await make();
    const windows = { onlineWindowMs: 5 * MIN, offlineAfterMs: 60 * MIN };
    const now = T0 + 100 * MIN;
    await addProofs(proofs, WALLET_A, 'fresh', 1, 0, () => now - MIN); // online
    await addProofs(proofs, WALLET_A, 'idle', 1, 0, () => now - 30 * MIN); // warning
    await addProofs(proofs, WALLET_A, 'gone', 1, 0, () => now - 90 * MIN); // offline
    await devices.recordHealth(WALLET_A, 'sick', aReport('error', now - 2 * MIN), 10); // error
    await devices.recordHealth(WALLET_A, 'slow', aReport('degraded', now - 20 * MIN), 10); // degraded
    await devices.recordHealth(WALLET_A, 'dead', aReport('error', now - 61 * MIN), 10); // offline
    const group = await groups.createGroup(WALLET_A, { name: 'g', description: null, createdAtMs: T0 }, 10);
    if (!isRight(group)) return t.fail();
    await groups.assignDevices(WALLET_A, group.right.groupId, ['idle', 'sick']);
    const ids = async (q: Parameters<DeviceStore['listDevices']>[1]) => (await devices.listDevices(WALLET_A, q)).items.map((d) => d.deviceId);
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
    const buckets = await devices.deviceBuckets(WALLET_A, cutoffsAt(now, windows));
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
    await devices.recordHealth(WALLET_B, 'other', aReport('ok', now), 10);
    const all = await devices.deviceBuckets(null, cutoffsAt(now, windows));
    t.is(
      all.reduce((n, b) => n + b.count, 0),
      7,
    );
  });

  testFn(`${name}: groups are created once per name and wallet, up to the limit`, async (t) => {
    const { groups } = await make();
    const a = await groups.createGroup(WALLET_A, { name: 'Lyon', description: 'north site', createdAtMs: T0 }, 2);
    if (!isRight(a)) return t.fail();
    t.like(a.right, { wallet: WALLET_A, name: 'Lyon', description: 'north site', createdAtMs: T0 });
    t.regex(a.right.groupId, /^grp_[0-9a-f]{24}$/);
    t.deepEqual(await groups.createGroup(WALLET_A, { name: 'Lyon', description: null, createdAtMs: T0 }, 2), {
      _tag: 'Left',
      left: { _tag: 'GroupNameTaken', name: 'Lyon' },
    });
    t.true(isRight(await groups.createGroup(WALLET_A, { name: 'lyon', description: null, createdAtMs: T0 }, 2)));
    t.deepEqual(await groups.createGroup(WALLET_A, { name: 'Paris', description: null, createdAtMs: T0 }, 2), {
      _tag: 'Left',
      left: { _tag: 'GroupLimitReached', limit: 2 },
    });
    t.true(isRight(await groups.createGroup(WALLET_B, { name: 'Lyon', description: null, createdAtMs: T0 }, 2)));
    t.is(await groups.countGroups(WALLET_A), 2);
    t.is(await groups.countGroups(WALLET_B), 1);
    t.deepEqual(await groups.getGroup(WALLET_A, a.right.groupId), { ...a.right, deviceCount: 0, deviceIds: [] });
    t.is(await groups.getGroup(WALLET_B, a.right.groupId), null);
  });

  testFn(`${name}: concurrent creates of one name make one group`, async (t) => {
    const { groups } = await make();
    const results = await Promise.all(Array.from({ length: 8 }, () => groups.createGroup(WALLET_A, { name: 'same', description: null, createdAtMs: T0 }, 100)));
    t.is(results.filter(isRight).length, 1);
    t.is(await groups.countGroups(WALLET_A), 1);
  });

  testFn(`${name}: groups list by name in pages, with their devices`, async (t) => {
    const { devices, groups } = await make();
    const names = ['b', 'A', 'é', 'a', 'c'];
    const made: Record<string, string> = {};
    for (const n of names) {
      const g = await groups.createGroup(WALLET_A, { name: n, description: null, createdAtMs: T0 }, 10);
      if (isRight(g)) made[n] = g.right.groupId;
    }
    for (const id of ['d2', 'd1', 'd3']) await devices.recordHealth(WALLET_A, id, aReport('ok', T0), 10);
    await groups.assignDevices(WALLET_A, made['b']!, ['d2', 'd1']);
    await groups.assignDevices(WALLET_A, made['c']!, ['d3']);
    const first = await groups.listGroups(WALLET_A, { limit: 3, withDeviceIds: true });
    t.deepEqual(
      first.items.map((g) => g.name),
      ['A', 'a', 'b'],
    );
    t.is(first.next, 'b');
    t.deepEqual(first.items[2]!.deviceIds, ['d1', 'd2']);
    t.is(first.items[2]!.deviceCount, 2);
    t.deepEqual(first.items[0]!.deviceIds, []);
    const second = await groups.listGroups(WALLET_A, { limit: 3, afterName: 'b', withDeviceIds: false });
    t.deepEqual(
      second.items.map((g) => [g.name, g.deviceCount, g.deviceIds]),
      [
        ['c', 1, null],
        ['é', 0, null],
      ],
    );
    t.is(second.next, null);
    t.deepEqual((await groups.listGroups(WALLET_B, { limit: 3, withDeviceIds: true })).items, []);
  });

  testFn(`${name}: assign moves devices into one group, all or nothing`, async (t) => {
    const { devices, groups, proofs } = await make();
    await addProofs(proofs, WALLET_A, 'arm-1', 1);
    await addProofs(proofs, WALLET_A, 'arm-2', 1, 5);
    await devices.recordHealth(WALLET_A, 'cam-1', aReport('ok', T0), 10);
    await addProofs(proofs, WALLET_B, 'b-arm', 1, 9);
    const g1 = await groups.createGroup(WALLET_A, { name: 'one', description: null, createdAtMs: T0 }, 10);
    const g2 = await groups.createGroup(WALLET_A, { name: 'two', description: null, createdAtMs: T0 }, 10);
    const gb = await groups.createGroup(WALLET_B, { name: 'b', description: null, createdAtMs: T0 }, 10);
    if (!isRight(g1) || !isRight(g2) || !isRight(gb)) return t.fail();
    const one = g1.right.groupId;
    const two = g2.right.groupId;
    const moved = await groups.assignDevices(WALLET_A, one, ['arm-1', 'cam-1']);
    if (!isRight(moved)) return t.fail();
    t.is(moved.right.changed, 2);
    t.deepEqual(moved.right.group.deviceIds, ['arm-1', 'cam-1']);
    // Into another group: out of the first. Already-members do not count as changed.
    const again = await groups.assignDevices(WALLET_A, two, ['cam-1', 'arm-2']);
    if (!isRight(again)) return t.fail();
    t.is(again.right.changed, 2);
    t.is(((await groups.assignDevices(WALLET_A, two, ['cam-1'])) as { right: { changed: number } }).right.changed, 0);
    t.deepEqual((await groups.getGroup(WALLET_A, one))?.deviceIds, ['arm-1']);
    t.is((await devices.getDevice(WALLET_A, 'cam-1'))?.groupId, two);
    // Unknown ids (and another wallet's devices are unknown): named, and nothing changes.
    t.deepEqual(await groups.assignDevices(WALLET_A, one, ['zz', 'arm-2', 'b-arm']), {
      _tag: 'Left',
      left: { _tag: 'UnknownDevices', deviceIds: ['zz', 'b-arm'] },
    });
    t.is((await devices.getDevice(WALLET_A, 'arm-2'))?.groupId, two);
    // Another wallet's group does not exist; nor can it receive this wallet's devices.
    t.deepEqual(await groups.assignDevices(WALLET_A, gb.right.groupId, ['arm-1']), {
      _tag: 'Left',
      left: { _tag: 'GroupNotFound', groupId: gb.right.groupId },
    });
    const intoB = await groups.assignDevices(WALLET_B, gb.right.groupId, ['arm-1']);
    t.true(isLeft(intoB) && intoB.left._tag === 'UnknownDevices');
    t.is((await devices.getDevice(WALLET_A, 'arm-1'))?.groupId, one);
    t.deepEqual(await groups.assignDevices(WALLET_A, 'grp_missing', ['arm-1']), { _tag: 'Left', left: { _tag: 'GroupNotFound', groupId: 'grp_missing' } });
  });

  testFn(`${name}: unassign takes only the group's own members out`, async (t) => {
    const { devices, groups } = await make();
    for (const id of ['d1', 'd2', 'd3']) await devices.recordHealth(WALLET_A, id, aReport('ok', T0), 10);
    const g1 = await groups.createGroup(WALLET_A, { name: 'one', description: null, createdAtMs: T0 }, 10);
    const g2 = await groups.createGroup(WALLET_A, { name: 'two', description: null, createdAtMs: T0 }, 10);
    if (!isRight(g1) || !isRight(g2)) return t.fail();
    await groups.assignDevices(WALLET_A, g1.right.groupId, ['d1', 'd2']);
    await groups.assignDevices(WALLET_A, g2.right.groupId, ['d3']);
    const out = await groups.unassignDevices(WALLET_A, g1.right.groupId, ['d1', 'd3']);
    if (!isRight(out)) return t.fail();
    t.is(out.right.changed, 1);
    t.deepEqual(out.right.group.deviceIds, ['d2']);
    t.is((await devices.getDevice(WALLET_A, 'd3'))?.groupId, g2.right.groupId);
    t.is((await devices.getDevice(WALLET_A, 'd1'))?.groupId, null);
    t.deepEqual(await groups.unassignDevices(WALLET_A, g1.right.groupId, ['d2', 'nope']), {
      _tag: 'Left',
      left: { _tag: 'UnknownDevices', deviceIds: ['nope'] },
    });
    t.is((await devices.getDevice(WALLET_A, 'd2'))?.groupId, g1.right.groupId);
    t.true(isLeft(await groups.unassignDevices(WALLET_B, g1.right.groupId, ['d2'])));
  });

  testFn(`${name}: a group edit changes its name, description and colour; a taken name changes nothing`, async (t) => {
    const { groups } = await make();
    const made = await groups.createGroup(WALLET_A, { name: 'Lyon', description: null, createdAtMs: T0, color: '#112233' }, 10);
    const other = await groups.createGroup(WALLET_A, { name: 'Paris', description: null, createdAtMs: T0 }, 10);
    if (made._tag !== 'Right' || other._tag !== 'Right') return t.fail();
    t.is(made.right.color, '#112233');
    t.is(other.right.color, null);
    const id = made.right.groupId;
    t.like(await groups.updateGroup(WALLET_A, id, { name: 'Lyon east', description: 'Bay 3', color: '#aabbcc' }), {
      _tag: 'Right',
      right: { name: 'Lyon east', description: 'Bay 3', color: '#aabbcc', createdAtMs: T0 },
    });
    t.like(await groups.updateGroup(WALLET_A, id, { color: null }), { _tag: 'Right', right: { name: 'Lyon east', description: 'Bay 3', color: null } });
    t.like(await groups.updateGroup(WALLET_A, id, { name: 'Paris', description: 'x' }), { _tag: 'Left', left: { _tag: 'GroupNameTaken', name: 'Paris' } });
    t.like(await groups.getGroup(WALLET_A, id), { name: 'Lyon east', description: 'Bay 3' });
    // Its own name again is no clash.
    t.like(await groups.updateGroup(WALLET_A, id, { name: 'Lyon east' }), { _tag: 'Right' });
    t.like(await groups.updateGroup(WALLET_B, id, { name: 'mine' }), { _tag: 'Left', left: { _tag: 'GroupNotFound' } });
    t.like(await groups.updateGroup(WALLET_A, 'grp_nope', { name: 'x' }), { _tag: 'Left', left: { _tag: 'GroupNotFound' } });
    t.deepEqual(
      (await groups.listGroups(WALLET_A, { limit: 10, withDeviceIds: false })).items.map((g) => [g.name, g.color]),
      [
        ['Lyon east', null],
        ['Paris', null],
      ],
    );
  });

  testFn(`${name}: deleting a group unassigns its devices and deletes nothing else`, async (t) => {
    const { devices, groups, proofs } = await make();
    await addProofs(proofs, WALLET_A, 'arm-1', 2);
    await devices.recordHealth(WALLET_A, 'arm-1', aReport('ok', T0 + 10), 10);
    await devices.recordHealth(WALLET_A, 'cam-1', aReport('ok', T0), 10);
    const g = await groups.createGroup(WALLET_A, { name: 'one', description: null, createdAtMs: T0 }, 10);
    if (!isRight(g)) return t.fail();
    await groups.assignDevices(WALLET_A, g.right.groupId, ['arm-1', 'cam-1']);
    t.is(await groups.deleteGroup(WALLET_B, g.right.groupId), null);
    t.deepEqual(await groups.deleteGroup(WALLET_A, g.right.groupId), { unassigned: 2 });
    t.is(await groups.getGroup(WALLET_A, g.right.groupId), null);
    t.is(await groups.deleteGroup(WALLET_A, g.right.groupId), null);
    const arm = await devices.getDevice(WALLET_A, 'arm-1');
    t.like(arm, { groupId: null, proofCount: 2 });
    t.is((await devices.healthHistory(WALLET_A, 'arm-1', 10)).length, 1);
    t.is((await proofs.search(WALLET_A, { order: 'asc', limit: 10 })).items.length, 2);
    // The name is free again.
    t.true(isRight(await groups.createGroup(WALLET_A, { name: 'one', description: null, createdAtMs: T0 }, 10)));
  });

  testFn(`${name}: proofs, reports and group changes racing each other keep every figure`, async (t) => {
    const { devices, groups, proofs } = await make();
    const ids = Array.from({ length: 12 }, (_, i) => `bot-${String(i).padStart(2, '0')}`);
    for (const id of ids) await devices.recordHealth(WALLET_A, id, aReport('ok', T0), 5);
    const g = await groups.createGroup(WALLET_A, { name: 'race', description: null, createdAtMs: T0 }, 10);
    if (!isRight(g)) return t.fail();
    const groupId = g.right.groupId;
    const records = Array.from({ length: 120 }, (_, i) => aProofRecord(WALLET_A, { taskId: `r${i}`, robotId: ids[(i * 7) % ids.length]! }, T0 + i));
    const reversed = [...ids].reverse();
    await Promise.all([
      ...records.map((r) => proofs.add(r)),
      ...ids.map((id, i) => devices.recordHealth(WALLET_A, id, aReport(i % 2 ? 'ok' : 'degraded', T0 + 1000 + i), 5)),
      groups.assignDevices(WALLET_A, groupId, reversed),
      groups.unassignDevices(WALLET_A, groupId, ids.slice(0, 6)),
      groups.assignDevices(WALLET_A, groupId, ids.slice(3)),
    ]);
    const listed = (await devices.listDevices(WALLET_A, { limit: 50 })).items;
    t.is(
      listed.reduce((n, d) => n + d.proofCount, 0),
      120,
    );
    t.true(listed.every((d) => d.proofCount === 10));
    t.true(listed.every((d, i) => d.lastHealth?.receivedAtMs === T0 + 1000 + i));
    t.deepEqual(await groups.deleteGroup(WALLET_A, groupId), { unassigned: listed.filter((d) => d.groupId === groupId).length });
  });

  testFn(`${name}: heavy races between proofs, reports, group changes and deletes all succeed`, async (t) => {
    // A regression check, so probabilistic: when a health report wrote its device row twice
    // (PostgreSQL then re-checks the group foreign key) and group changes locked FOR UPDATE,
    // this deadlocked in about a third of the runs.
    const { devices, groups, proofs } = await make();
    const ids = Array.from({ length: 200 }, (_, i) => `dev-${i}`);
    for (const id of ids) await devices.recordHealth(WALLET_A, id, aReport('ok', T0), 5);
    const groupIds: string[] = [];
    for (let g = 0; g < 4; g++) {
      const made = await groups.createGroup(WALLET_A, { name: `g${g}`, description: null, createdAtMs: T0 }, 10);
      if (isRight(made)) groupIds.push(made.right.groupId);
    }
    const records = Array.from({ length: 2000 }, (_, i) => aProofRecord(WALLET_A, { taskId: `h${i}`, robotId: ids[(i * 13) % ids.length]! }, T0 + i));
    const rotated = (k: number) => [...ids.slice((k * 37) % 200), ...ids.slice(0, (k * 37) % 200)].reverse();
    const settled = await Promise.allSettled([
      ...records.map((r) => proofs.add(r)),
      ...Array.from({ length: 40 }, (_, k) =>
        k % 3 === 2
          ? groups.unassignDevices(WALLET_A, groupIds[k % 4]!, rotated(k))
          : groups.assignDevices(WALLET_A, groupIds[k % 4]!, rotated(k).slice(0, 120)),
      ),
      ...ids.map((id, i) => devices.recordHealth(WALLET_A, id, aReport('degraded', T0 + 1000 + i), 5)),
      ...ids.map((id, i) => devices.recordHealth(WALLET_A, id, aReport('error', T0 + 500 + i), 5)),
      groups.deleteGroup(WALLET_A, groupIds[3]!),
      groups.deleteGroup(WALLET_A, groupIds[2]!),
    ]);
    const failed = settled.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    t.deepEqual(
      failed.map((f) => String(f.reason)),
      [],
    );
    const listed = (await devices.listDevices(WALLET_A, { limit: 200 })).items;
    t.is(
      listed.reduce((n, d) => n + d.proofCount, 0),
      2000,
    );
    t.true(listed.every((d) => d.lastHealth?.status === 'degraded' && d.lastHealth.receivedAtMs === T0 + 1000 + Number(d.deviceId.slice(4))));
    t.true(listed.every((d) => d.groupId === null || d.groupId === groupIds[0] || d.groupId === groupIds[1]));
  });
}
