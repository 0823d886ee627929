import * as E from 'fp-ts/lib/Either.js';
import type { GroupStore, GroupChange, GroupNotFound, UnknownDevices } from '../ports/group-store.js';
import type { InvalidDeviceIds } from './fleet-errors.js';
import { distinctDeviceIds } from './change-membership.js';

/**
 * Puts devices in a group, taking them out of any other (a device is in at most one group).
 * All or nothing: one id the wallet has no device for changes nothing, and names every such id.
 */
export class AssignDevices {
  constructor(private readonly store: GroupStore) {}

  async execute(input: {
    wallet: string;
    groupId: string;
    deviceIds: readonly string[];
  }): Promise<E.Either<InvalidDeviceIds | GroupNotFound | UnknownDevices, GroupChange>> {
    const ids = distinctDeviceIds(input.deviceIds);
    if (E.isLeft(ids)) return ids;
    return this.store.assignDevices(input.wallet, input.groupId, ids.right);
  }
}
