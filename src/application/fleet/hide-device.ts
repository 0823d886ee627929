import * as E from 'fp-ts/lib/Either.js';
import type { Clock } from '../ports/clock.js';
import type { DeviceStore } from '../ports/device-store.js';
import type { DeviceNotFound } from './fleet-errors.js';

/**
 * Hides a device (what deleting one means): it leaves the overview, the counts and its group;
 * its proofs and health history stay, and it comes back, ungrouped, with its next proof or
 * health report. Hiding a hidden device is not an error.
 */
export class HideDevice {
  constructor(
    private readonly store: DeviceStore,
    private readonly clock: Clock,
  ) {}

  async execute(input: { wallet: string; deviceId: string }): Promise<E.Either<DeviceNotFound, { readonly deviceId: string; readonly hiddenAtMs: number }>> {
    const device = await this.store.hideDevice(input.wallet, input.deviceId, this.clock.nowMs());
    if (!device || device.hiddenAtMs === null) return E.left({ _tag: 'DeviceNotFound', deviceId: input.deviceId });
    return E.right({ deviceId: device.deviceId, hiddenAtMs: device.hiddenAtMs });
  }
}
