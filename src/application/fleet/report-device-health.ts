import * as E from 'fp-ts/lib/Either.js';
import { isDeviceId, DEVICE_ID_MAX } from '../../domain/fleet/device.js';
import { cutoffsAt, type StatusWindows } from '../../domain/fleet/device-status.js';
import {
  checkHealthReadings,
  deriveHealthLevel,
  NO_READINGS,
  type HealthLevel,
  type HealthReadings,
  type HealthReport,
  type InvalidHealthReport,
} from '../../domain/fleet/health-report.js';
import { robotRefusal, type RobotNotAllowed } from '../../domain/identity/key-grant.js';
import type { Clock } from '../ports/clock.js';
import type { DeviceStore } from '../ports/device-store.js';
import { viewOf, type DeviceView } from './device-view.js';

export interface HealthSettings {
  readonly windows: StatusWindows;
  /** Reports kept per device (HEALTH_HISTORY_LIMIT); older ones are deleted as new ones arrive. */
  readonly historyLimit: number;
}

export interface HealthRecorded {
  readonly report: HealthReport;
  readonly device: DeviceView;
}

/**
 * What a device sends: any readings (absent ones are "not measured"), and a status or none,
 * in which case it is derived from the readings (deriveHealthLevel).
 */
export type ReportedReadings = Partial<Omit<HealthReadings, 'status'>> & { readonly status?: HealthLevel | null };

/**
 * Stores a device's health report, stamped with the registry's clock (a device's own clock
 * may be wrong). A report for an id the wallet has not seen yet creates the device, and a
 * hidden device comes back with its next report.
 */
export class ReportDeviceHealth {
  constructor(
    private readonly store: DeviceStore,
    private readonly clock: Clock,
    private readonly settings: HealthSettings,
  ) {}

  /** `robotIds`: the devices the caller may report for (a bound API key's), or null / absent: any. */
  async execute(input: {
    wallet: string;
    deviceId: string;
    readings: ReportedReadings;
    robotIds?: readonly string[] | null;
  }): Promise<E.Either<InvalidHealthReport | RobotNotAllowed, HealthRecorded>> {
    if (!isDeviceId(input.deviceId)) {
      return E.left({ _tag: 'InvalidHealthReport', field: 'device_id', detail: `device_id must be 1 to ${DEVICE_ID_MAX} characters, without U+0000` });
    }
    const refused = robotRefusal(input.robotIds, input.deviceId);
    if (refused) return E.left(refused);
    const { status, ...given } = input.readings;
    const readings = { ...NO_READINGS, ...withoutUndefined(given) };
    if ((status === undefined || status === null) && Object.values(readings).every((v) => v === null)) {
      return E.left({ _tag: 'InvalidHealthReport', field: 'status', detail: 'a health report needs a status or at least one reading' });
    }
    const checked = checkHealthReadings({ ...readings, status: status ?? deriveHealthLevel(readings) });
    if (E.isLeft(checked)) return checked;
    const nowMs = this.clock.nowMs();
    const report: HealthReport = { ...checked.right, receivedAtMs: nowMs, statusDerived: status === undefined || status === null };
    const device = await this.store.recordHealth(input.wallet, input.deviceId, report, this.settings.historyLimit);
    return E.right({ report, device: viewOf(device, cutoffsAt(nowMs, this.settings.windows)) });
  }
}

const withoutUndefined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
