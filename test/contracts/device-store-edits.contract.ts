import test from 'ava';
import { cutoffsAt } from '../../src/domain/fleet/device-status.js';
import type { DeclareTest } from '../support/databases.js';
import { aReport } from '../support/fleet-mothers.js';
import { WALLET_A, WALLET_B } from '../support/mothers.js';
import { addProofs, MIN, T0, type FleetFixture } from './fleet-fixture.js';

/**
 * The DeviceStore contract, what the owner sets: name, description, type, hidden, order. Memory,
 * SQLite and PostgreSQL run it with deviceStoreProofsContract and deviceStoreReportsContract.
 * `make` returns empty stores; pass `test.serial` when they share a database.
 */
export function deviceStoreEditsContract(name: string, make: () => Promise<FleetFixture>, testFn: DeclareTest = test): void {
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
}
