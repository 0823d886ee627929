import type { Device } from '../../domain/fleet/device.js';
import type { ActivityCutoffs, StatePair } from '../../domain/fleet/device-status.js';
import type { HealthReport } from '../../domain/fleet/health-report.js';

export interface DeviceQuery {
  /** A group id, or null for devices in no group. */
  readonly groupId?: string | null;
  /** Only devices whose (activity, health) at `cutoffs` is one of `pairs`. */
  readonly states?: { readonly cutoffs: ActivityCutoffs; readonly pairs: readonly StatePair[] };
  readonly limit: number;
  /**
   * Continue strictly after this position. Devices are listed by their sort order (unordered
   * ones last), then by id in byte order; `afterSortOrder` defaults to unordered.
   */
  readonly afterDeviceId?: string;
  readonly afterSortOrder?: number | null;
}

export interface DevicePage {
  readonly items: readonly Device[];
  /** The last id of this page when another page exists, else null. */
  readonly next: string | null;
}

/** What a device edit changes: each member given is set (null clears it), the others stay. */
export interface DeviceChanges {
  readonly name?: string | null;
  readonly description?: string | null;
  readonly deviceType?: string | null;
}

/** How many devices of a group (null: none) have an activity and health mark. */
export interface DeviceBucket extends StatePair {
  readonly groupId: string | null;
  readonly count: number;
}

/**
 * A wallet's devices and their health history. Every call is scoped to one wallet: another
 * wallet's device does not exist for the caller.
 *
 * Devices are created and counted by the proof writers of the same technology, inside the
 * transaction that inserts a proof with a robot_id (see the adapters), and here by
 * `recordHealth`. Which group a device is in is the GroupStore's to change.
 */
export interface DeviceStore {
  listDevices(wallet: string, query: DeviceQuery): Promise<DevicePage>;
  getDevice(wallet: string, deviceId: string): Promise<Device | null>;
  /** Null when the wallet has no such device. */
  renameDevice(wallet: string, deviceId: string, name: string): Promise<Device | null>;
  /** Null when the wallet has no such device. */
  editDevice(wallet: string, deviceId: string, changes: DeviceChanges): Promise<Device | null>;
  /**
   * Hides the device from lists and counts and takes it out of its group; its proofs and
   * health stay, and its next proof or health report shows it again. Null when there is no
   * such device; hiding a hidden device keeps its first hiding time.
   */
  hideDevice(wallet: string, deviceId: string, atMs: number): Promise<Device | null>;
  /** Sets each device's sort order: all, or (an id the wallet has no device for) none, naming those ids. */
  orderDevices(
    wallet: string,
    orders: readonly { readonly deviceId: string; readonly sortOrder: number }[],
  ): Promise<{ readonly unknown: readonly string[]; readonly updated: number }>;
  /**
   * Stores a report, creating the device if it is new, and keeps only the newest `keep`
   * reports of the device. The device's last health becomes this report unless a report
   * received later is already there.
   */
  recordHealth(wallet: string, deviceId: string, report: HealthReport, keep: number): Promise<Device>;
  /** Newest first. */
  healthHistory(wallet: string, deviceId: string, limit: number): Promise<readonly HealthReport[]>;
  /** Counts of the shown devices by group, activity and health; a null wallet counts every wallet (metrics). */
  deviceBuckets(wallet: string | null, cutoffs: ActivityCutoffs): Promise<readonly DeviceBucket[]>;
}
