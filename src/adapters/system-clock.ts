import type { Clock } from '../application/ports/clock.js';

export class SystemClock implements Clock {
  nowMs(): number {
    return Date.now();
  }
}
