import type { EventType, NewEvent, StoredEvent } from '../../domain/events/event.js';

export interface EventPage {
  /** Oldest first. */
  readonly items: readonly StoredEvent[];
  /** More of the wallet's events matched than the page held. */
  readonly hasMore: boolean;
}

export interface WalletEventQuery {
  /** Only these types; absent or null: every type. */
  readonly types?: readonly EventType[] | null;
  readonly limit: number;
  /** Only events before this id (for newest-first pages). */
  readonly beforeId?: number;
  /** Oldest first (default) or newest first. */
  readonly order?: 'asc' | 'desc';
}

/**
 * The outbox: events in the order they were committed, each with its id. The changes that
 * cause events write them in their own transactions (the proof writers, the key and device
 * stores); `append` is for events with no other change to go with (a refused submission, a
 * test delivery, a sweep's finding).
 */
export interface EventLog {
  /** Stores the events in one transaction, in order. */
  append(events: readonly NewEvent[]): Promise<void>;
  /** The wallet's events after `afterId` (and before `beforeId`), in `order`; never one sent to a single endpoint. */
  walletEvents(wallet: string, afterId: number, query: WalletEventQuery): Promise<EventPage>;
  /** Every wallet's events after `afterId`, oldest first, at most `limit`: for the jobs that read them all. */
  allEvents(afterId: number, limit: number): Promise<readonly StoredEvent[]>;
  /** The events with these ids that still exist. */
  byIds(ids: readonly number[]): Promise<readonly StoredEvent[]>;
  /** The newest event's id, 0 when there is none. */
  lastId(): Promise<number>;
  /** Deletes up to `max` of the events older than `beforeMs`, oldest first; how many went. */
  prune(beforeMs: number, max: number): Promise<number>;
  /** How far the job `name` has read the events (0 at first). */
  cursor(name: string): Promise<number>;
  /**
   * Appends `events` and moves the cursor `name` from `from` to `to`, in one transaction; false,
   * writing nothing, when the cursor was not at `from` (another instance got there first).
   */
  appendMovingCursor(events: readonly NewEvent[], cursor: { readonly name: string; readonly from: number; readonly to: number }): Promise<boolean>;
}
