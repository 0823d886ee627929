import type * as E from 'fp-ts/lib/Either.js';
import type { Device } from '../../domain/fleet/device.js';
import type { ActivityCutoffs, StatePair } from '../../domain/fleet/device-status.js';
import type { Group } from '../../domain/fleet/group.js';
import type { HealthReport } from '../../domain/fleet/health-report.js';

export interface DeviceQuery {
  /** A group id, or null for devices in no group. */
  readonly groupId?: string | null;
  /** Only devices whose (activity, health) at `cutoffs` is one of `pairs`. */
  readonly states?: { readonly cutoffs: ActivityCutoffs; readonly pairs: readonly StatePair[] };
  readonly limit: number;
  /** Continue strictly after this device id. Devices are listed by id, byte order. */
  readonly afterDeviceId?: string;
}

export interface DevicePage {
  readonly items: readonly Device[];
  /** The last id of this page when another page exists, else null. */
  readonly next: string | null;
}

/** How many devices of a group (null: none) have an activity and health mark. */
export interface DeviceBucket extends StatePair {
  readonly groupId: string | null;
  readonly count: number;
}

export interface GroupView extends Group {
  readonly deviceCount: number;
  /** In id order; null when not asked for. */
  readonly deviceIds: readonly string[] | null;
}

export interface GroupQuery {
  readonly limit: number;
  /** Continue strictly after this name. Groups are listed by name, byte order (names are unique). */
  readonly afterName?: string;
  readonly withDeviceIds: boolean;
}

export interface GroupPage {
  readonly items: readonly GroupView[];
  readonly next: string | null;
}

export interface NewGroup {
  readonly name: string;
  readonly description: string | null;
  readonly createdAtMs: number;
}

export type GroupNameTaken = { readonly _tag: 'GroupNameTaken'; readonly name: string };
export type GroupLimitReached = { readonly _tag: 'GroupLimitReached'; readonly limit: number };
export type GroupNotFound = { readonly _tag: 'GroupNotFound'; readonly groupId: string };
/** Ids the wallet has no device for, in request order: nothing was changed. */
export type UnknownDevices = { readonly _tag: 'UnknownDevices'; readonly deviceIds: readonly string[] };

export interface GroupChange {
  /** The group after the change, with its device ids. */
  readonly group: GroupView;
  /** Devices whose group actually changed (already-members and non-members are left as they are). */
  readonly changed: number;
}

/**
 * Devices, their health history and groups. Every call is scoped to one wallet: another
 * wallet's device or group does not exist for the caller, and cannot be put in its groups.
 *
 * Devices are created and counted by the ProofStore adapter of the same technology, inside
 * the transaction that inserts a proof with a robot_id (see the adapters), and here by
 * `recordHealth`.
 */
export interface FleetStore {
  listDevices(wallet: string, query: DeviceQuery): Promise<DevicePage>;
  getDevice(wallet: string, deviceId: string): Promise<Device | null>;
  /** Null when the wallet has no such device. */
  renameDevice(wallet: string, deviceId: string, name: string): Promise<Device | null>;
  /**
   * Stores a report, creating the device if it is new, and keeps only the newest `keep`
   * reports of the device. The device's last health becomes this report unless a report
   * received later is already there.
   */
  recordHealth(wallet: string, deviceId: string, report: HealthReport, keep: number): Promise<Device>;
  /** Newest first. */
  healthHistory(wallet: string, deviceId: string, limit: number): Promise<readonly HealthReport[]>;
  /** Device counts by group, activity and health; a null wallet counts every wallet (metrics). */
  deviceBuckets(wallet: string | null, cutoffs: ActivityCutoffs): Promise<readonly DeviceBucket[]>;

  createGroup(wallet: string, group: NewGroup, maxGroups: number): Promise<E.Either<GroupNameTaken | GroupLimitReached, Group>>;
  getGroup(wallet: string, groupId: string): Promise<GroupView | null>;
  listGroups(wallet: string, query: GroupQuery): Promise<GroupPage>;
  countGroups(wallet: string): Promise<number>;
  /** Moves the devices into the group (out of any other): all or, on an unknown id, nothing. */
  assignDevices(wallet: string, groupId: string, deviceIds: readonly string[]): Promise<E.Either<GroupNotFound | UnknownDevices, GroupChange>>;
  /** Takes those of the devices that are in the group out of it; all known or nothing changes. */
  unassignDevices(wallet: string, groupId: string, deviceIds: readonly string[]): Promise<E.Either<GroupNotFound | UnknownDevices, GroupChange>>;
  /** Deletes the group and unassigns its devices; deletes nothing else. Null when there is no such group. */
  deleteGroup(wallet: string, groupId: string): Promise<{ readonly unassigned: number } | null>;
}
