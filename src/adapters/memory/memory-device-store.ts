import type { DeviceBucket, DeviceChanges, DevicePage, DeviceQuery, DeviceStore } from '../../application/ports/device-store.js';
import { UNORDERED, type Device } from '../../domain/fleet/device.js';
import { activityOf, type ActivityCutoffs, type StatePair } from '../../domain/fleet/device-status.js';
import type { HealthReport } from '../../domain/fleet/health-report.js';
import { byteOrder } from '../random-ids.js';
import type { MemoryFleet, MutableDevice } from './memory-fleet.js';

/** In-memory DeviceStore for tests and embedding; passes the same contract suite as the SQL store. */
export class MemoryDeviceStore implements DeviceStore {
  constructor(private readonly fleet: MemoryFleet) {}

  async listDevices(wallet: string, q: DeviceQuery): Promise<DevicePage> {
    const after = q.afterDeviceId === undefined ? undefined : { sortOrder: q.afterSortOrder ?? UNORDERED, deviceId: q.afterDeviceId };
    const matches = [...this.fleet.walletDevices(wallet).values()]
      .filter(
        (d) =>
          d.hiddenAtMs === null &&
          (q.groupId === undefined || d.groupId === q.groupId) &&
          (q.states === undefined || inStates(d, q.states.cutoffs, q.states.pairs)) &&
          (after === undefined || listOrder(d, after) > 0),
      )
      .sort(listOrder);
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

  async editDevice(wallet: string, deviceId: string, changes: DeviceChanges): Promise<Device | null> {
    const d = this.fleet.walletDevices(wallet).get(deviceId);
    if (!d) return null;
    if (changes.name !== undefined) d.name = changes.name;
    if (changes.description !== undefined) d.description = changes.description;
    if (changes.deviceType !== undefined) d.deviceType = changes.deviceType;
    return copy(d);
  }

  async hideDevice(wallet: string, deviceId: string, atMs: number): Promise<Device | null> {
    const d = this.fleet.walletDevices(wallet).get(deviceId);
    if (!d) return null;
    d.hiddenAtMs ??= atMs;
    d.groupId = null;
    return copy(d);
  }

  async orderDevices(wallet: string, orders: readonly { deviceId: string; sortOrder: number }[]): Promise<{ unknown: readonly string[]; updated: number }> {
    const devices = this.fleet.walletDevices(wallet);
    const unknown = orders.map((o) => o.deviceId).filter((id) => !devices.has(id));
    if (unknown.length > 0) return { unknown, updated: 0 };
    for (const o of orders) devices.get(o.deviceId)!.sortOrder = o.sortOrder;
    return { unknown: [], updated: orders.length };
  }

  async recordHealth(wallet: string, deviceId: string, report: HealthReport, keep: number): Promise<Device> {
    const device = this.fleet.touch(wallet, deviceId, report.receivedAtMs);
    if (device.lastHealth === null || device.lastHealth.receivedAtMs <= report.receivedAtMs) device.lastHealth = structuredClone(report);
    this.fleet.contacted(device, 'health_report', report.receivedAtMs);
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
      if (d.hiddenAtMs !== null) continue;
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

/** The list order: sort order (unordered last), then id in byte order. */
const listOrder = (a: Pick<Device, 'sortOrder' | 'deviceId'>, b: Pick<Device, 'sortOrder' | 'deviceId'>): number =>
  (a.sortOrder ?? UNORDERED) - (b.sortOrder ?? UNORDERED) || byteOrder(a.deviceId, b.deviceId);
const healthKey = (wallet: string, deviceId: string) => `${wallet}\u0000${deviceId}`;

function inStates(d: Device, cutoffs: ActivityCutoffs, pairs: readonly StatePair[]): boolean {
  const activity = activityOf(d.lastSeenMs, cutoffs);
  const health = d.lastHealth?.status ?? 'none';
  return pairs.some((p) => p.activity === activity && p.health === health);
}
