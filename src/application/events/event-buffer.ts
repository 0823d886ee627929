import type { NewEvent } from '../../domain/events/event.js';
import type { EventLog } from '../ports/event-log.js';

/**
 * Events with no change of their own to be written with (a refused submission): kept in
 * memory on the request's path and appended in one transaction a few times a second, so a
 * flood of refusals costs one write per flush, not one per request. Bounded: past `max`
 * events waiting (the database down for long), new ones are dropped and counted.
 */
export class EventBuffer {
  private waiting: NewEvent[] = [];
  private droppedCount = 0;

  constructor(
    private readonly log: EventLog,
    private readonly max = 50_000,
  ) {}

  add(event: NewEvent): void {
    if (this.waiting.length >= this.max) this.droppedCount++;
    else this.waiting.push(event);
  }

  get dropped(): number {
    return this.droppedCount;
  }

  async flush(): Promise<void> {
    if (this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    try {
      await this.log.append(batch);
    } catch (err) {
      this.waiting = [...batch, ...this.waiting].slice(0, this.max);
      throw err;
    }
  }
}
