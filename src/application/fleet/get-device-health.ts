import * as E from 'fp-ts/lib/Either.js';
import type { HealthReport } from '../../domain/fleet/health-report.js';
import type { DeviceStore } from '../ports/device-store.js';
import type { DeviceNotFound } from './fleet-errors.js';

/** A device's latest health report: null when it never sent one. */
export class GetDeviceHealth {
  constructor(private readonly store: DeviceStore) {}

  async execute(input: {
    wallet: string;
    deviceId: string;
  }): Promise<E.Either<DeviceNotFound, { readonly deviceId: string; readonly health: HealthReport | null }>> {
    const device = await this.store.getDevice(input.wallet, input.deviceId);
    if (!device) return E.left({ _tag: 'DeviceNotFound', deviceId: input.deviceId });
    return E.right({ deviceId: device.deviceId, health: device.lastHealth });
  }
}
