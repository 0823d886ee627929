import * as E from 'fp-ts/lib/Either.js';
import { DEVICE_TYPE_MAX } from '../../domain/fleet/device.js';
import { cutoffsAt, type StatusWindows } from '../../domain/fleet/device-status.js';
import { normalizeDescription, normalizeLabel, normalizeName, type InvalidText } from '../../domain/fleet/names.js';
import type { Clock } from '../ports/clock.js';
import type { DeviceChanges, DeviceStore } from '../ports/device-store.js';
import { viewOf, type DeviceView } from './device-view.js';
import { changesOf } from './edit-changes.js';
import type { DeviceNotFound, NothingToChange } from './fleet-errors.js';

export interface DeviceEdit {
  /** A name (the name rules), or null to go back to the id. */
  readonly name?: string | null;
  /** Up to 500 characters, line breaks allowed; empty or null clears it. */
  readonly description?: string | null;
  /** Up to 64 characters on one line; empty or null clears it. */
  readonly deviceType?: string | null;
}

/** Sets what the owner says of a device: its name, description and type. Members not given stay. */
export class EditDevice {
  constructor(
    private readonly store: DeviceStore,
    private readonly clock: Clock,
    private readonly windows: StatusWindows,
  ) {}

  async execute(input: { wallet: string; deviceId: string; edit: DeviceEdit }): Promise<E.Either<InvalidText | DeviceNotFound | NothingToChange, DeviceView>> {
    const changes = changesOf<DeviceEdit, DeviceChanges, InvalidText>(input.edit, {
      name: (name) => (name === null ? E.right(null) : normalizeName(name)),
      description: normalizeDescription,
      deviceType: (deviceType) => normalizeLabel(deviceType, 'type', DEVICE_TYPE_MAX),
    });
    if (E.isLeft(changes)) return changes;
    const device = await this.store.editDevice(input.wallet, input.deviceId, changes.right);
    if (!device) return E.left({ _tag: 'DeviceNotFound', deviceId: input.deviceId });
    return E.right(viewOf(device, cutoffsAt(this.clock.nowMs(), this.windows)));
  }
}
