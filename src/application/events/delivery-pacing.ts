import type { Clock } from '../ports/clock.js';
import type { LoadGauge } from '../ports/load-gauge.js';

export interface PacingSettings {
  /** Above this share of busy time, new deliveries wait (WEBHOOK_YIELD_ABOVE; at 1 they never do). */
  readonly yieldAbove: number;
  /** Even so, a claim at least this often: deliveries slow down under load, they never stop. */
  readonly atLeastEveryMs: number;
}

/**
 * Deliveries give way to requests. Claiming, signing and recording a delivery take the event
 * loop's time, the time that serves submissions; while the event loop is nearly always busy,
 * the delivery loop claims no more than once every `atLeastEveryMs`, and catches up as soon as
 * the load eases. A delivery that waits is not lost: it stays due in the queue, with its id.
 */
export class DeliveryPacing {
  private lastClaimMs = -Infinity;

  constructor(
    private readonly gauge: LoadGauge,
    private readonly clock: Clock,
    private readonly settings: PacingSettings,
  ) {}

  /** Whether to claim now; a yes counts as a claim. */
  mayClaim(): boolean {
    const now = this.clock.nowMs();
    if (this.gauge.busyShare() > this.settings.yieldAbove && now - this.lastClaimMs < this.settings.atLeastEveryMs) return false;
    this.lastClaimMs = now;
    return true;
  }
}
