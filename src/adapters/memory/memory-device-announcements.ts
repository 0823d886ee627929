import type { AnnouncedDevice, DeviceAnnouncements } from '../../application/ports/device-announcements.js';
import type { NewEvent } from '../../domain/events/event.js';
import type { ActivityCutoffs, DeviceStatus } from '../../domain/fleet/device-status.js';
import { byteOrder } from '../random-ids.js';
import type { MemoryFleet } from './memory-fleet.js';

/** In-memory DeviceAnnouncements over a MemoryFleet (its `announced` statuses and its event log). */
export class MemoryDeviceAnnouncements implements DeviceAnnouncements {
  constructor(private readonly fleet: MemoryFleet) {}

  async stale(cutoffs: ActivityCutoffs, limit: number, after?: { wallet: string; deviceId: string }): Promise<readonly AnnouncedDevice[]> {
    return this.fleet
      .allDevices()
      .map((d): AnnouncedDevice => ({
        wallet: d.wallet,
        deviceId: d.deviceId,
        announced: this.fleet.announced.get(key(d.wallet, d.deviceId)) ?? null,
        lastSeenMs: d.lastSeenMs,
        health: d.lastHealth?.status ?? 'none',
      }))
      .filter(
        (d) =>
          d.announced === null ||
          (d.announced === 'online' && d.lastSeenMs < cutoffs.recentSinceMs) ||
          (d.announced !== 'offline' && d.lastSeenMs < cutoffs.silentBeforeMs),
      )
      .filter((d) => !after || byteOrder(d.wallet, after.wallet) > 0 || (d.wallet === after.wallet && byteOrder(d.deviceId, after.deviceId) > 0))
      .sort((a, b) => byteOrder(a.wallet, b.wallet) || byteOrder(a.deviceId, b.deviceId))
      .slice(0, limit);
  }

  async announce(device: AnnouncedDevice, to: DeviceStatus, event: NewEvent | null): Promise<boolean> {
    const stored = this.fleet.walletDevices(device.wallet).get(device.deviceId);
    const k = key(device.wallet, device.deviceId);
    if (!stored || stored.lastSeenMs !== device.lastSeenMs || (this.fleet.announced.get(k) ?? null) !== device.announced) return false;
    this.fleet.announced.set(k, to);
    if (event) this.fleet.events.appendNow([event]);
    return true;
  }
}

const key = (wallet: string, deviceId: string): string => `${wallet}\u0000${deviceId}`;
