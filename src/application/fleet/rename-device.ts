import * as E from 'fp-ts/lib/Either.js';
import { cutoffsAt, type StatusWindows } from '../../domain/fleet/device-status.js';
import { normalizeName, type InvalidText } from '../../domain/fleet/names.js';
import type { Clock } from '../ports/clock.js';
import type { DeviceStore } from '../ports/device-store.js';
import { viewOf, type DeviceView } from './device-view.js';
import type { DeviceNotFound } from './fleet-errors.js';

/** Sets a device's display name (trimmed, 1–100 characters). */
export class RenameDevice {
  constructor(
    private readonly store: DeviceStore,
    private readonly clock: Clock,
    private readonly windows: StatusWindows,
  ) {}

  async execute(input: { wallet: string; deviceId: string; name: string }): Promise<E.Either<InvalidText | DeviceNotFound, DeviceView>> {
    const name = normalizeName(input.name);
    if (E.isLeft(name)) return name;
    const device = await this.store.renameDevice(input.wallet, input.deviceId, name.right);
    if (!device) return E.left({ _tag: 'DeviceNotFound', deviceId: input.deviceId });
    return E.right(viewOf(device, cutoffsAt(this.clock.nowMs(), this.windows)));
  }
}
