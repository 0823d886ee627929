import * as E from 'fp-ts/lib/Either.js';
import type {
  DeviceBucket,
  DevicePage,
  DeviceQuery,
  FleetStore,
  GroupChange,
  GroupLimitReached,
  GroupNameTaken,
  GroupNotFound,
  GroupPage,
  GroupQuery,
  GroupView,
  NewGroup,
  UnknownDevices,
} from '../../application/ports/fleet-store.js';
import { isDeviceId, type Device } from '../../domain/fleet/device.js';
import { activityOf, type ActivityCutoffs, type StatePair } from '../../domain/fleet/device-status.js';
import type { Group } from '../../domain/fleet/group.js';
import type { HealthReport } from '../../domain/fleet/health-report.js';
import type { ProofRecord } from '../../domain/proof/proof-record.js';
import { byteOrder, newGroupId } from '../random-ids.js';
import type { StoredProofListener } from './memory-proof-store.js';

type MutableDevice = { -readonly [K in keyof Device]: Device[K] };

/**
 * In-memory FleetStore for tests and embedding; passes the same contract suite as the Knex
 * store. Give it to a MemoryProofStore as its listener so devices follow stored proofs.
 */
export class MemoryFleetStore implements FleetStore, StoredProofListener {
  private readonly devices = new Map<string, Map<string, MutableDevice>>();
  private readonly groups = new Map<string, Map<string, Group>>();
  private readonly health = new Map<string, HealthReport[]>();

  proofStored(record: ProofRecord): void {
    if (record.robotId === null || !isDeviceId(record.robotId)) return;
    const device = this.touch(record.wallet, record.robotId, record.receivedAtMs);
    device.proofCount++;
    device.lastProofAtMs = Math.max(device.lastProofAtMs ?? record.receivedAtMs, record.receivedAtMs);
  }

  async listDevices(wallet: string, q: DeviceQuery): Promise<DevicePage> {
    const matches = [...this.walletDevices(wallet).values()]
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
    const d = this.walletDevices(wallet).get(deviceId);
    return d ? copy(d) : null;
  }

  async renameDevice(wallet: string, deviceId: string, name: string): Promise<Device | null> {
    const d = this.walletDevices(wallet).get(deviceId);
    if (!d) return null;
    d.name = name;
    return copy(d);
  }

  async recordHealth(wallet: string, deviceId: string, report: HealthReport, keep: number): Promise<Device> {
    const device = this.touch(wallet, deviceId, report.receivedAtMs);
    if (device.lastHealth === null || device.lastHealth.receivedAtMs <= report.receivedAtMs) device.lastHealth = structuredClone(report);
    const key = healthKey(wallet, deviceId);
    const history = [...(this.health.get(key) ?? []), structuredClone(report)];
    this.health.set(key, history.slice(Math.max(0, history.length - keep)));
    return copy(device);
  }

  async healthHistory(wallet: string, deviceId: string, limit: number): Promise<readonly HealthReport[]> {
    return structuredClone((this.health.get(healthKey(wallet, deviceId)) ?? []).slice(-limit).reverse());
  }

  async deviceBuckets(wallet: string | null, cutoffs: ActivityCutoffs): Promise<readonly DeviceBucket[]> {
    const all = wallet === null ? [...this.devices.values()].flatMap((m) => [...m.values()]) : [...this.walletDevices(wallet).values()];
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

  async createGroup(wallet: string, draft: NewGroup, maxGroups: number): Promise<E.Either<GroupNameTaken | GroupLimitReached, Group>> {
    const groups = this.walletGroups(wallet);
    if ([...groups.values()].some((g) => g.name === draft.name)) return E.left({ _tag: 'GroupNameTaken', name: draft.name });
    if (groups.size >= maxGroups) return E.left({ _tag: 'GroupLimitReached', limit: maxGroups });
    const group: Group = { wallet, groupId: newGroupId(), ...draft };
    groups.set(group.groupId, group);
    return E.right({ ...group });
  }

  async getGroup(wallet: string, groupId: string): Promise<GroupView | null> {
    const group = this.walletGroups(wallet).get(groupId);
    return group ? this.view(group, true) : null;
  }

  async listGroups(wallet: string, q: GroupQuery): Promise<GroupPage> {
    const sorted = [...this.walletGroups(wallet).values()]
      .filter((g) => q.afterName === undefined || byteOrder(g.name, q.afterName) > 0)
      .sort((a, b) => byteOrder(a.name, b.name));
    const page = sorted.slice(0, q.limit);
    return { items: page.map((g) => this.view(g, q.withDeviceIds)), next: sorted.length > q.limit ? page[page.length - 1]!.name : null };
  }

  async countGroups(wallet: string): Promise<number> {
    return this.walletGroups(wallet).size;
  }

  async assignDevices(wallet: string, groupId: string, ids: readonly string[]): Promise<E.Either<GroupNotFound | UnknownDevices, GroupChange>> {
    return this.change(wallet, groupId, ids, (d) => (d.groupId === groupId ? false : ((d.groupId = groupId), true)));
  }

  async unassignDevices(wallet: string, groupId: string, ids: readonly string[]): Promise<E.Either<GroupNotFound | UnknownDevices, GroupChange>> {
    return this.change(wallet, groupId, ids, (d) => (d.groupId === groupId ? ((d.groupId = null), true) : false));
  }

  async deleteGroup(wallet: string, groupId: string): Promise<{ readonly unassigned: number } | null> {
    if (!this.walletGroups(wallet).delete(groupId)) return null;
    let unassigned = 0;
    for (const d of this.walletDevices(wallet).values()) {
      if (d.groupId === groupId) {
        d.groupId = null;
        unassigned++;
      }
    }
    return { unassigned };
  }

  private change(wallet: string, groupId: string, ids: readonly string[], apply: (d: MutableDevice) => boolean): E.Either<GroupNotFound | UnknownDevices, GroupChange> {
    const group = this.walletGroups(wallet).get(groupId);
    if (!group) return E.left({ _tag: 'GroupNotFound', groupId });
    const devices = this.walletDevices(wallet);
    const unknown = ids.filter((id) => !devices.has(id));
    if (unknown.length > 0) return E.left({ _tag: 'UnknownDevices', deviceIds: unknown });
    let changed = 0;
    for (const id of ids) if (apply(devices.get(id)!)) changed++;
    return E.right({ group: this.view(group, true), changed });
  }

  private view(group: Group, withDeviceIds: boolean): GroupView {
    const ids = [...this.walletDevices(group.wallet).values()].filter((d) => d.groupId === group.groupId).map((d) => d.deviceId).sort(byteOrder);
    return { ...group, deviceCount: ids.length, deviceIds: withDeviceIds ? ids : null };
  }

  /** The device, created if new, with lastSeen moved forward to `atMs`. */
  private touch(wallet: string, deviceId: string, atMs: number): MutableDevice {
    const devices = this.walletDevices(wallet);
    let device = devices.get(deviceId);
    if (!device) {
      device = { wallet, deviceId, name: null, groupId: null, firstSeenMs: atMs, lastSeenMs: atMs, lastProofAtMs: null, proofCount: 0, lastHealth: null };
      devices.set(deviceId, device);
    }
    device.firstSeenMs = Math.min(device.firstSeenMs, atMs);
    device.lastSeenMs = Math.max(device.lastSeenMs, atMs);
    return device;
  }

  private walletDevices(wallet: string): Map<string, MutableDevice> {
    let devices = this.devices.get(wallet);
    if (!devices) this.devices.set(wallet, (devices = new Map()));
    return devices;
  }

  private walletGroups(wallet: string): Map<string, Group> {
    let groups = this.groups.get(wallet);
    if (!groups) this.groups.set(wallet, (groups = new Map()));
    return groups;
  }
}

const copy = (d: MutableDevice): Device => structuredClone(d);
const healthKey = (wallet: string, deviceId: string) => `${wallet}\u0000${deviceId}`;

function inStates(d: Device, cutoffs: ActivityCutoffs, pairs: readonly StatePair[]): boolean {
  const activity = activityOf(d.lastSeenMs, cutoffs);
  const health = d.lastHealth?.status ?? 'none';
  return pairs.some((p) => p.activity === activity && p.health === health);
}
