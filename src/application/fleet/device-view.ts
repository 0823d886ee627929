import type { Device } from '../../domain/fleet/device.js';
import { deviceStatus, type ActivityCutoffs, type DeviceStatus } from '../../domain/fleet/device-status.js';

/** A device with its status derived at one instant. */
export interface DeviceView {
  readonly device: Device;
  readonly status: DeviceStatus;
}

export const viewOf = (device: Device, cutoffs: ActivityCutoffs): DeviceView => ({ device, status: deviceStatus(device, cutoffs) });
