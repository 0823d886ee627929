import * as E from 'fp-ts/lib/Either.js';
import type { GroupStore, GroupChange, GroupNotFound, UnknownDevices } from '../ports/group-store.js';
import type { InvalidDeviceIds } from './fleet-errors.js';
import { distinctDeviceIds } from './change-membership.js';

/** Takes devices out of a group; devices that are not in it are left where they are. */
export class UnassignDevices {
  constructor(private readonly store: GroupStore) {}

  async execute(input: {
    wallet: string;
    groupId: string;
    deviceIds: readonly string[];
  }): Promise<E.Either<InvalidDeviceIds | GroupNotFound | UnknownDevices, GroupChange>> {
    const ids = distinctDeviceIds(input.deviceIds);
    if (E.isLeft(ids)) return ids;
    return this.store.unassignDevices(input.wallet, input.groupId, ids.right);
  }
}
