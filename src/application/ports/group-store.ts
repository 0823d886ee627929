import type * as E from 'fp-ts/lib/Either.js';
import type { Group } from '../../domain/fleet/group.js';

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
  readonly color?: string | null;
}

/** What a group edit changes: each member given is set (null clears description or colour). */
export interface GroupChanges {
  readonly name?: string;
  readonly description?: string | null;
  readonly color?: string | null;
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
 * A wallet's groups of devices, and which devices are in them (a device is in one group at
 * most). Every call is scoped to one wallet: another wallet's group does not exist for the
 * caller, and another wallet's device cannot be put in its groups.
 */
export interface GroupStore {
  createGroup(wallet: string, group: NewGroup, maxGroups: number): Promise<E.Either<GroupNameTaken | GroupLimitReached, Group>>;
  getGroup(wallet: string, groupId: string): Promise<GroupView | null>;
  listGroups(wallet: string, query: GroupQuery): Promise<GroupPage>;
  countGroups(wallet: string): Promise<number>;
  /** Moves the devices into the group (out of any other): all or, on an unknown id, nothing. */
  assignDevices(wallet: string, groupId: string, deviceIds: readonly string[]): Promise<E.Either<GroupNotFound | UnknownDevices, GroupChange>>;
  /** Takes those of the devices that are in the group out of it; all known or nothing changes. */
  unassignDevices(wallet: string, groupId: string, deviceIds: readonly string[]): Promise<E.Either<GroupNotFound | UnknownDevices, GroupChange>>;
  /** Changes the group's name, description or colour; a name another group of the wallet has is refused. */
  updateGroup(wallet: string, groupId: string, changes: GroupChanges): Promise<E.Either<GroupNotFound | GroupNameTaken, GroupView>>;
  /** Deletes the group and unassigns its devices; deletes nothing else. Null when there is no such group. */
  deleteGroup(wallet: string, groupId: string): Promise<{ readonly unassigned: number } | null>;
}
