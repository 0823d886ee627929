import test from 'ava';
import type { DeclareTest } from '../support/databases.js';
import { aReport } from '../support/fleet-mothers.js';
import { WALLET_A } from '../support/mothers.js';
import { addProofs, T0, type FleetFixture } from './fleet-fixture.js';

/**
 * The DeviceStore contract, health reports and their readings. Memory, SQLite and PostgreSQL run
 * it with deviceStoreProofsContract and deviceStoreEditsContract. `make` returns empty stores;
 * pass `test.serial` when they share a database.
 */
export function deviceStoreReportsContract(name: string, make: () => Promise<FleetFixture>, testFn: DeclareTest = test): void {
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
}
