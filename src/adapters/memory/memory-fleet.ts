import { statusChanged } from '../../domain/events/announcements.js';
import type { StatusCause } from '../../domain/events/event.js';
import { isDeviceId, type Device } from '../../domain/fleet/device.js';
import { statusAfterContact, type DeviceStatus } from '../../domain/fleet/device-status.js';
import type { Group } from '../../domain/fleet/group.js';
import type { HealthReport } from '../../domain/fleet/health-report.js';
import type { ProofRecord } from '../../domain/proof/proof-record.js';
import { MemoryEventLog } from './memory-event-log.js';
import type { StoredProofListener } from './memory-proof-store.js';

export type MutableDevice = { -readonly [K in keyof Device]: Device[K] };

/**
 * The devices, health reports and groups of an in-memory fleet, shared by a MemoryDeviceStore
 * and a MemoryGroupStore as the SQL stores share their tables. Give it to a MemoryProofStore
 * as its listener, so devices follow stored proofs as the SQL proof writers make them.
 */
export class MemoryFleet implements StoredProofListener {
  private readonly devices = new Map<string, Map<string, MutableDevice>>();
  private readonly groups = new Map<string, Map<string, Group>>();
  readonly health = new Map<string, HealthReport[]>();
  /** The status last announced for each device (the SQL stores' devices.announced_status). */
  readonly announced = new Map<string, DeviceStatus>();

  /** `events`: where device status changes are announced, as the SQL stores do in their transactions. */
  constructor(readonly events: MemoryEventLog = new MemoryEventLog()) {}

  proofStored(record: ProofRecord): void {
    if (record.robotId === null || !isDeviceId(record.robotId)) return;
    const device = this.touch(record.wallet, record.robotId, record.receivedAtMs);
    device.proofCount++;
    device.lastProofAtMs = Math.max(device.lastProofAtMs ?? record.receivedAtMs, record.receivedAtMs);
    this.contacted(device, 'proof', record.receivedAtMs);
  }

  /** After a proof or report: the device is recent, and a change of its status is announced. */
  contacted(device: MutableDevice, why: StatusCause, atMs: number): void {
    const key = `${device.wallet}\u0000${device.deviceId}`;
    const from = this.announced.get(key) ?? null;
    const to = statusAfterContact(device.lastHealth?.status ?? 'none');
    if (from === to) return;
    this.announced.set(key, to);
    this.events.appendNow([statusChanged({ wallet: device.wallet, deviceId: device.deviceId, from, to, why, lastSeenMs: device.lastSeenMs }, atMs)]);
  }

  /** Every wallet's devices (for counts across wallets). */
  allDevices(): MutableDevice[] {
    return [...this.devices.values()].flatMap((m) => [...m.values()]);
  }

  /** The device, created if new (or shown again if hidden), with lastSeen moved forward to `atMs`. */
  touch(wallet: string, deviceId: string, atMs: number): MutableDevice {
    const devices = this.walletDevices(wallet);
    let device = devices.get(deviceId);
    if (!device) {
      device = {
        wallet,
        deviceId,
        name: null,
        groupId: null,
        firstSeenMs: atMs,
        lastSeenMs: atMs,
        lastProofAtMs: null,
        proofCount: 0,
        lastHealth: null,
        hiddenAtMs: null,
        sortOrder: null,
        description: null,
        deviceType: null,
      };
      devices.set(deviceId, device);
    }
    device.firstSeenMs = Math.min(device.firstSeenMs, atMs);
    device.lastSeenMs = Math.max(device.lastSeenMs, atMs);
    // A hidden device comes back with its next proof or report.
    device.hiddenAtMs = null;
    return device;
  }

  walletDevices(wallet: string): Map<string, MutableDevice> {
    let devices = this.devices.get(wallet);
    if (!devices) this.devices.set(wallet, (devices = new Map()));
    return devices;
  }

  walletGroups(wallet: string): Map<string, Group> {
    let groups = this.groups.get(wallet);
    if (!groups) this.groups.set(wallet, (groups = new Map()));
    return groups;
  }
}
