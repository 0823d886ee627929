import type { NewEvent } from '../../domain/events/event.js';
import type { ActivityCutoffs, DeviceStatus, HealthMark } from '../../domain/fleet/device-status.js';

/** A device as the offline sweep sees it: what was last announced, and what its status follows from. */
export interface AnnouncedDevice {
  readonly wallet: string;
  readonly deviceId: string;
  /** Null: never announced (a device from before events existed). */
  readonly announced: DeviceStatus | null;
  readonly lastSeenMs: number;
  readonly health: HealthMark;
}

/**
 * The status each device was last announced with. Proofs and health reports announce the
 * changes they make themselves; time makes the others (online to warning to offline), and
 * nothing else would notice them: the sweep asks for the devices whose announced status time
 * may have overtaken, and announces their new one.
 */
export interface DeviceAnnouncements {
  /**
   * Every wallet's devices whose status at `cutoffs` may differ from the one announced:
   * announced online and not recent any more, announced anything but offline and silent, or
   * never announced. At most `limit`, after (wallet, deviceId) `after` in that order.
   */
  stale(cutoffs: ActivityCutoffs, limit: number, after?: { wallet: string; deviceId: string }): Promise<readonly AnnouncedDevice[]>;
  /**
   * Sets the device's announced status to `to`, with `event` (when not null) in the same
   * transaction, if it is still announced as `device.announced` and was last seen at
   * `device.lastSeenMs`; false, changing nothing, if a proof or report got there first.
   */
  announce(device: AnnouncedDevice, to: DeviceStatus, event: NewEvent | null): Promise<boolean>;
}
