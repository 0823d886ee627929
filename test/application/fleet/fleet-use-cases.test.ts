import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { MemoryDeviceStore } from '../../../src/adapters/memory/memory-device-store.js';
import { MemoryFleet } from '../../../src/adapters/memory/memory-fleet.js';
import { MemoryGroupStore } from '../../../src/adapters/memory/memory-group-store.js';
import { MemoryWalletStats } from '../../../src/adapters/memory/memory-wallet-stats.js';
import { MemoryProofActivity } from '../../../src/adapters/memory/memory-proof-activity.js';
import { MemoryProofStore } from '../../../src/adapters/memory/memory-proof-store.js';
import { AssignDevices } from '../../../src/application/fleet/assign-devices.js';
import { CreateGroup } from '../../../src/application/fleet/create-group.js';
import { GetFleetOverview } from '../../../src/application/fleet/get-fleet-overview.js';
import { GetWalletStats } from '../../../src/application/fleet/get-wallet-stats.js';
import { KeyStoreUsageTotals } from '../../../src/application/fleet/key-store-usage-totals.js';
import { ReportDeviceHealth } from '../../../src/application/fleet/report-device-health.js';
import type { ApiKeyRecord } from '../../../src/application/ports/key-store.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';

const NOW = Date.parse('2026-11-21T00:00:00Z');
const clock = { nowMs: () => NOW };
const windows = { onlineWindowMs: 300_000, offlineAfterMs: 3_600_000 };
const readings = {
  status: 'ok',
  cpuPercent: null,
  memoryPercent: null,
  batteryPercent: null,
  temperatureC: null,
  uptimeS: null,
  message: null,
  metrics: null,
} as const;

function world() {
  const fleet = new MemoryFleet();
  const proofs = new MemoryProofStore(fleet);
  return { devices: new MemoryDeviceStore(fleet), groups: new MemoryGroupStore(fleet), proofs };
}

test('overview: a page of devices, every group, totals over the whole fleet', async (t) => {
  const { devices, groups, proofs } = world();
  for (let i = 0; i < 5; i++) await proofs.add(aProofRecord(WALLET_A, { taskId: `t${i}`, robotId: `r${i}` }, i < 3 ? NOW - 60_000 : NOW - 2 * 3_600_000));
  const g = await new CreateGroup(groups, clock).execute({ wallet: WALLET_A, name: ' Yard ' });
  if (g._tag === 'Left') return t.fail();
  t.is(g.right.name, 'Yard');
  await new AssignDevices(groups).execute({ wallet: WALLET_A, groupId: g.right.groupId, deviceIds: ['r0', 'r4', 'r0'] });
  const overview = new GetFleetOverview(devices, groups, clock, windows);
  const result = await overview.execute({ wallet: WALLET_A, limit: 2 });
  if (result._tag === 'Left') return t.fail();
  t.deepEqual(
    result.right.devices.map((d) => [d.device.deviceId, d.status]),
    [
      ['r0', 'online'],
      ['r1', 'online'],
    ],
  );
  t.deepEqual(result.right.summary.byStatus, { online: 3, warning: 0, offline: 2, degraded: 0, error: 0 });
  t.deepEqual(
    result.right.summary.byGroup.map((b) => [b.groupId, b.deviceCount, b.byStatus.offline]),
    [
      [g.right.groupId, 2, 1],
      [null, 3, 1],
    ],
  );
  t.is(result.right.groups[0]!.deviceCount, 2);
  const rest = await overview.execute({ wallet: WALLET_A, limit: 10, cursor: result.right.nextCursor!, statuses: ['offline'] });
  t.deepEqual(rest._tag === 'Right' && rest.right.devices.map((d) => d.device.deviceId), ['r3', 'r4']);
  t.deepEqual(await overview.execute({ wallet: WALLET_A, limit: 2, cursor: 'Zz' }), { _tag: 'Left', left: { _tag: 'InvalidCursor' } });
  t.deepEqual(await overview.execute({ wallet: WALLET_B, limit: 2, groupId: g.right.groupId }), {
    _tag: 'Left',
    left: { _tag: 'GroupNotFound', groupId: g.right.groupId },
  });
});

test('health reports: the id and readings are checked, and history is bounded', async (t) => {
  const { devices } = world();
  const report = new ReportDeviceHealth(devices, clock, { windows, historyLimit: 2 });
  t.like(await report.execute({ wallet: WALLET_A, deviceId: '', readings }), { _tag: 'Left', left: { field: 'device_id' } });
  t.like(await report.execute({ wallet: WALLET_A, deviceId: 'x', readings: { ...readings, cpuPercent: 120 } }), {
    _tag: 'Left',
    left: { field: 'cpu_percent' },
  });
  t.is(await devices.getDevice(WALLET_A, 'x'), null);
  for (let i = 0; i < 4; i++) await report.execute({ wallet: WALLET_A, deviceId: 'x', readings: { ...readings, uptimeS: i } });
  t.deepEqual(
    (await devices.healthHistory(WALLET_A, 'x', 10)).map((h) => h.uptimeS),
    [3, 2],
  );
  const last = await report.execute({ wallet: WALLET_A, deviceId: 'x', readings: { ...readings, status: 'error' } });
  t.like(last, { _tag: 'Right', right: { report: { status: 'error', receivedAtMs: NOW }, device: { status: 'error' } } });
});

test('health reports from a bound caller: only for its robots, and nothing is stored for another', async (t) => {
  const { devices } = world();
  const report = new ReportDeviceHealth(devices, clock, { windows, historyLimit: 2 });
  t.deepEqual(
    await report.execute({ wallet: WALLET_A, deviceId: 'arm-2', readings, robotIds: ['arm-1'] }),
    E.left({ _tag: 'RobotNotAllowed', robotId: 'arm-2' }),
  );
  t.is(await devices.getDevice(WALLET_A, 'arm-2'), null);
  t.like(await report.execute({ wallet: WALLET_A, deviceId: 'arm-1', readings, robotIds: ['arm-1'] }), { _tag: 'Right' });
  t.like(await report.execute({ wallet: WALLET_A, deviceId: 'arm-2', readings, robotIds: null }), { _tag: 'Right' });
});

test('assign: repeats are dropped; too many ids are refused before the store is asked', async (t) => {
  const { groups } = world();
  const assign = new AssignDevices(groups);
  t.like(await assign.execute({ wallet: WALLET_A, groupId: 'g', deviceIds: [] }), { _tag: 'Left', left: { _tag: 'InvalidDeviceIds' } });
  t.like(await assign.execute({ wallet: WALLET_A, groupId: 'g', deviceIds: Array.from({ length: 1001 }, (_, i) => `d${i}`) }), {
    _tag: 'Left',
    left: { _tag: 'InvalidDeviceIds' },
  });
  // 1,001 ids with one repeat are 1,000 distinct ids: allowed (the group does not exist).
  const ids = [...Array.from({ length: 1000 }, (_, i) => `d${i}`), 'd0'];
  t.like(await assign.execute({ wallet: WALLET_A, groupId: 'g', deviceIds: ids }), { _tag: 'Left', left: { _tag: 'GroupNotFound' } });
});

test("wallet statistics are only the caller's own; key usage sums the wallet's keys", async (t) => {
  const { devices, groups, proofs } = world();
  const key = (requestCount: number, errorCount: number) => ({ requestCount, errorCount }) as ApiKeyRecord;
  const keyUsage = new KeyStoreUsageTotals({ listByWallet: async (w) => (w === WALLET_A ? [key(10, 1), key(5, 4)] : []) });
  const stats = new GetWalletStats(devices, groups, new MemoryProofActivity(proofs), keyUsage, clock, windows, new MemoryWalletStats());
  t.deepEqual(await stats.execute({ caller: WALLET_B, wallet: WALLET_A }), { _tag: 'Left', left: { _tag: 'NotYourWallet', wallet: WALLET_A } });
  const own = await stats.execute({ caller: WALLET_A, wallet: WALLET_A });
  t.like(own, { _tag: 'Right', right: { apiKeys: { requests: 15, errors: 5, errorRate: 0.3333 }, proofs: { total: 0 } } });
});
