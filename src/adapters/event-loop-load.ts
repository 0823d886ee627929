import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { LoadGauge } from '../application/ports/load-gauge.js';

/**
 * The event loop's utilization (the share of time it was not waiting for I/O) over the last
 * full sampling window, read from Node's own accounting (`performance.eventLoopUtilization`).
 * A window, not the time since the last question: a gauge read every few milliseconds would
 * otherwise swing from 0 to 1 with each callback.
 */
export class EventLoopLoad implements LoadGauge {
  private last: EventLoopUtilization = performance.eventLoopUtilization();
  private share = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(windowMs = 100) {
    this.timer = setInterval(() => {
      const now = performance.eventLoopUtilization();
      this.share = performance.eventLoopUtilization(now, this.last).utilization;
      this.last = now;
    }, windowMs);
    this.timer.unref();
  }

  busyShare(): number {
    return this.share;
  }

  close(): void {
    clearInterval(this.timer);
  }
}
