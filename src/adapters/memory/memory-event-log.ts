import type { EventLog, EventPage, WalletEventQuery } from '../../application/ports/event-log.js';
import type { NewEvent, StoredEvent } from '../../domain/events/event.js';

/**
 * In-memory EventLog for tests and embedding; runs the same contract suite as the SQL log.
 * The memory stores that announce changes (keys, devices, proofs) append here, in the same
 * call as the change, as the SQL stores do in the same transaction.
 */
export class MemoryEventLog implements EventLog {
  private readonly events: StoredEvent[] = [];
  private nextId = 1;
  /** Where each job has read to (the SQL log's `event_cursors`); the memory delivery queue shares them. */
  readonly cursors = new Map<string, number>();

  async append(events: readonly NewEvent[]): Promise<void> {
    this.appendNow(events);
  }

  /** Synchronous append, for the memory stores that announce their own changes. */
  appendNow(events: readonly NewEvent[]): void {
    for (const e of events)
      this.events.push({ ...e, logIndex: e.logIndex ?? null, target: e.target ?? null, data: structuredClone(e.data), id: this.nextId++ });
  }

  async walletEvents(wallet: string, afterId: number, query: WalletEventQuery): Promise<EventPage> {
    const types = query.types && query.types.length > 0 ? query.types : null;
    const matching = this.events.filter(
      (e) =>
        e.wallet === wallet &&
        e.id > afterId &&
        (query.beforeId === undefined || e.id < query.beforeId) &&
        (e.target ?? null) === null &&
        (types === null || (types as readonly string[]).includes(e.type)),
    );
    if (query.order === 'desc') matching.reverse();
    return { items: matching.slice(0, query.limit).map(copy), hasMore: matching.length > query.limit };
  }

  async allEvents(afterId: number, limit: number): Promise<readonly StoredEvent[]> {
    return this.events
      .filter((e) => e.id > afterId)
      .slice(0, limit)
      .map(copy);
  }

  async byIds(ids: readonly number[]): Promise<readonly StoredEvent[]> {
    const wanted = new Set(ids);
    return this.events.filter((e) => wanted.has(e.id)).map(copy);
  }

  async lastId(): Promise<number> {
    return this.events[this.events.length - 1]?.id ?? 0;
  }

  async cursor(name: string): Promise<number> {
    return this.cursors.get(name) ?? 0;
  }

  async appendMovingCursor(events: readonly NewEvent[], cursor: { name: string; from: number; to: number }): Promise<boolean> {
    if ((this.cursors.get(cursor.name) ?? 0) !== cursor.from) return false;
    this.cursors.set(cursor.name, cursor.to);
    this.appendNow(events);
    return true;
  }

  async prune(beforeMs: number, max: number): Promise<number> {
    let removed = 0;
    for (let i = 0; i < this.events.length && removed < max;) {
      if (this.events[i]!.atMs < beforeMs) {
        this.events.splice(i, 1);
        removed++;
      } else i++;
    }
    return removed;
  }
}

const copy = (e: StoredEvent): StoredEvent => ({ ...e, data: structuredClone(e.data) });
