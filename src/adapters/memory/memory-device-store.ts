import type { DeviceBucket, DevicePage, DeviceQuery, DeviceStore } from '../../application/ports/device-store.js';
import type { Device } from '../../domain/fleet/device.js';
import { activityOf, type ActivityCutoffs, type StatePair } from '../../domain/fleet/device-status.js';
import type { HealthReport } from '../../domain/fleet/health-report.js';
import { byteOrder } from '../random-ids.js';
import type { MemoryFleet, MutableDevice } from './memory-fleet.js';

/** In-memory DeviceStore for tests and embedding; passes the same contract suite as the SQL store. */
export class MemoryDeviceStore implements DeviceStore {
  constructor(private readonly fleet: MemoryFleet) {}

  async listDevices(wallet: string, q: DeviceQuery): Promise<DevicePage> {
    const matches = [...this.fleet.walletDevices(wallet).values()]
      .filter(
        (d) =>
          (q.groupId === undefined || d.groupId === q.groupId) &&
          (q.states === undefined || inStates(d, q.states.cutoffs, q.states.pairs)) &&
          (q.afterDeviceId === undefined || byteOrder(d.deviceId, q.afterDeviceId) > 0),
      )
      .sort((a, b) => byteOrder(a.deviceId, b.deviceId));
    const page = matches.slice(0, q.limit);
    return { items: page.map(copy), next: matches.length > q.limit ? page[page.length - 1]!.deviceId : null };
  }

  async getDevice(wallet: string, deviceId: string): Promise<Device | null> {
    const d = this.fleet.walletDevices(wallet).get(deviceId);
    return d ? copy(d) : null;
  }

  async renameDevice(wallet: string, deviceId: string, name: string): Promise<Device | null> {
    const d = this.fleet.walletDevices(wallet).get(deviceId);
    if (!d) return null;
    d.name = name;
    return copy(d);
  }

  async recordHealth(wallet: string, deviceId: string, report: HealthReport, keep: number): Promise<Device> {
    const device = this.fleet.touch(wallet, deviceId, report.receivedAtMs);
    if (device.lastHealth === null || device.lastHealth.receivedAtMs <= report.receivedAtMs) device.lastHealth = structuredClone(report);
    const key = healthKey(wallet, deviceId);
    const history = [...(this.fleet.health.get(key) ?? []), structuredClone(report)];
    this.fleet.health.set(key, history.slice(Math.max(0, history.length - keep)));
    return copy(device);
  }

  async healthHistory(wallet: string, deviceId: string, limit: number): Promise<readonly HealthReport[]> {
    return structuredClone((this.fleet.health.get(healthKey(wallet, deviceId)) ?? []).slice(-limit).reverse());
  }

  async deviceBuckets(wallet: string | null, cutoffs: ActivityCutoffs): Promise<readonly DeviceBucket[]> {
    const all = wallet === null ? this.fleet.allDevices() : [...this.fleet.walletDevices(wallet).values()];
    const buckets = new Map<string, { -readonly [K in keyof DeviceBucket]: DeviceBucket[K] }>();
    for (const d of all) {
      const bucket = { groupId: d.groupId, activity: activityOf(d.lastSeenMs, cutoffs), health: d.lastHealth?.status ?? 'none', count: 0 } as const;
      const key = JSON.stringify([bucket.groupId, bucket.activity, bucket.health]);
      const found = buckets.get(key) ?? { ...bucket };
      found.count++;
      buckets.set(key, found);
    }
    return [...buckets.values()];
  }
}

const copy = (d: MutableDevice): Device => structuredClone(d);
const healthKey = (wallet: string, deviceId: string) => `${wallet}\u0000${deviceId}`;

function inStates(d: Device, cutoffs: ActivityCutoffs, pairs: readonly StatePair[]): boolean {
  const activity = activityOf(d.lastSeenMs, cutoffs);
  const health = d.lastHealth?.status ?? 'none';
  return pairs.some((p) => p.activity === activity && p.health === health);
}
