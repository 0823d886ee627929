import { statusChanged } from '../../domain/events/announcements.js';
import { activityOf, cutoffsAt, statusOf, type StatusWindows } from '../../domain/fleet/device-status.js';
import type { Clock } from '../ports/clock.js';
import type { DeviceAnnouncements } from '../ports/device-announcements.js';

export interface SweepResult {
  /** Changes announced (`device.status_changed`, why: silence). */
  readonly announced: number;
  /** Devices never announced before, whose status was taken as it is, without an event. */
  readonly adopted: number;
}

/**
 * Notices what time alone changes: a device that stops sending goes from online to warning
 * (past DEVICE_ONLINE_WINDOW_S) and to offline (past DEVICE_OFFLINE_AFTER_S), with no request
 * to tell. Runs on one instance at a time (under a lease), every few seconds. A device never
 * announced (from before events existed) is adopted silently, so an upgrade does not announce
 * every device of every fleet at once.
 */
export class SweepDeviceStatuses {
  constructor(
    private readonly devices: DeviceAnnouncements,
    private readonly clock: Clock,
    private readonly windows: StatusWindows,
    private readonly pageSize = 500,
  ) {}

  async execute(): Promise<SweepResult> {
    const nowMs = this.clock.nowMs();
    const cutoffs = cutoffsAt(nowMs, this.windows);
    let announced = 0;
    let adopted = 0;
    let after: { wallet: string; deviceId: string } | undefined;
    for (;;) {
      const page = await this.devices.stale(cutoffs, this.pageSize, after);
      for (const d of page) {
        const to = statusOf(activityOf(d.lastSeenMs, cutoffs), d.health);
        if (to === d.announced) continue;
        // Lost to a proof or report that announced the device meanwhile: theirs is the news.
        const event =
          d.announced === null
            ? null
            : statusChanged({ wallet: d.wallet, deviceId: d.deviceId, from: d.announced, to, why: 'silence', lastSeenMs: d.lastSeenMs }, nowMs);
        if (!(await this.devices.announce(d, to, event))) continue;
        if (event) announced++;
        else adopted++;
      }
      if (page.length < this.pageSize) return { announced, adopted };
      const last = page[page.length - 1]!;
      after = { wallet: last.wallet, deviceId: last.deviceId };
    }
  }
}
