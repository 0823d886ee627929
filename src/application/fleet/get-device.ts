import * as E from 'fp-ts/lib/Either.js';
import { cutoffsAt, type StatusWindows } from '../../domain/fleet/device-status.js';
import type { HealthReport } from '../../domain/fleet/health-report.js';
import type { ProofSummary } from '../../domain/proof/proof-record.js';
import type { Clock } from '../ports/clock.js';
import type { DeviceStore } from '../ports/device-store.js';
import type { ProofStore } from '../ports/proof-store.js';
import { viewOf, type DeviceView } from './device-view.js';
import type { DeviceNotFound } from './fleet-errors.js';

export interface DeviceDetails extends DeviceView {
  /** Newest first. */
  readonly health: readonly HealthReport[];
  /** The device's latest proofs by created_at, newest first (the rest: GET /v1/proofs?robot_id=). */
  readonly recentProofs: readonly ProofSummary[];
}

/** One device with its recent health history and proofs. */
export class GetDevice {
  constructor(
    private readonly store: DeviceStore,
    private readonly proofs: ProofStore,
    private readonly clock: Clock,
    private readonly windows: StatusWindows,
  ) {}

  async execute(input: { wallet: string; deviceId: string; healthLimit: number; proofLimit: number }): Promise<E.Either<DeviceNotFound, DeviceDetails>> {
    const device = await this.store.getDevice(input.wallet, input.deviceId);
    if (!device) return E.left({ _tag: 'DeviceNotFound', deviceId: input.deviceId });
    const [health, proofs] = await Promise.all([
      this.store.healthHistory(input.wallet, input.deviceId, input.healthLimit),
      this.proofs.search(input.wallet, { robotId: input.deviceId, order: 'desc', limit: input.proofLimit }),
    ]);
    return E.right({ ...viewOf(device, cutoffsAt(this.clock.nowMs(), this.windows)), health, recentProofs: proofs.items });
  }
}
