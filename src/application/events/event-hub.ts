import type { StoredEvent } from '../../domain/events/event.js';
import type { EventLog } from '../ports/event-log.js';

type Listener = (event: StoredEvent) => void;

/**
 * This instance's view of the events as they are committed, by any instance: one reader
 * follows the log in id order (`poll`, on a timer while anyone listens) and hands each
 * wallet's events to that wallet's listeners (the open streams). Ids are given in commit
 * order (sql/event-rows.ts), so following the largest id seen misses nothing.
 */
export class EventHub {
  private lastId = 0;
  private started = false;
  /** Counts listens, so a skip ahead that raced one is dropped. */
  private generation = 0;
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(
    private readonly log: EventLog,
    private readonly pageSize = 1000,
  ) {}

  /** The id of the last event handed out: a new listener hears everything after it. */
  async position(): Promise<number> {
    await this.start();
    return this.lastId;
  }

  get listening(): boolean {
    return this.listeners.size > 0;
  }

  /**
   * Hands `listener` every event of `wallet` (never a test event) with an id above the hub's
   * position when it was called, in order; returns the way to stop. Start the hub first
   * (`position`), or that position is not known yet.
   */
  listen(wallet: string, listener: Listener): () => void {
    this.generation++;
    let set = this.listeners.get(wallet);
    if (!set) this.listeners.set(wallet, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(wallet) === set) this.listeners.delete(wallet);
    };
  }

  /**
   * While nobody listens, moves the position to the log's end without reading the events: a
   * first listener after an idle hour must not wait for an hour of events to be read. A
   * listen while the end was being read cancels the move, so no listener misses an event.
   */
  async skipAhead(): Promise<void> {
    if (!this.started || this.listeners.size > 0) return;
    const generation = this.generation;
    const last = await this.log.lastId();
    if (this.listeners.size === 0 && generation === this.generation && last > this.lastId) this.lastId = last;
  }

  /** Reads what was committed since the last poll and hands it out; how many events it read. */
  async poll(): Promise<number> {
    await this.start();
    let read = 0;
    for (;;) {
      const page = await this.log.allEvents(this.lastId, this.pageSize);
      for (const event of page) {
        this.lastId = event.id;
        if (event.target !== null && event.target !== undefined) continue;
        for (const listener of this.listeners.get(event.wallet) ?? []) listener(event);
      }
      read += page.length;
      if (page.length < this.pageSize) return read;
    }
  }

  private async start(): Promise<void> {
    if (this.started) return;
    this.lastId = await this.log.lastId();
    this.started = true;
  }
}
