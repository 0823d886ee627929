import type { Knex } from 'knex';
import type { AnyEventType, NewEvent, StoredEvent } from '../../domain/events/event.js';

/** An `events` row as the drivers return it (pg: bigint as text). */
export interface EventRow {
  readonly id: number | string;
  readonly wallet: string;
  readonly type: string;
  readonly at_ms: number | string;
  readonly log_index: number | string | null;
  readonly target: string | null;
  readonly data: string;
}

export const EVENT_COLUMNS = ['id', 'wallet', 'type', 'at_ms', 'log_index', 'target', 'data'] as const;

export const toStoredEvent = (r: EventRow): StoredEvent => ({
  id: Number(r.id),
  wallet: r.wallet,
  type: r.type as AnyEventType,
  atMs: Number(r.at_ms),
  logIndex: r.log_index === null ? null : Number(r.log_index),
  target: r.target,
  data: JSON.parse(r.data) as object,
});

export const eventRow = (e: NewEvent) => ({
  wallet: e.wallet,
  type: e.type,
  at_ms: e.atMs,
  log_index: e.logIndex ?? null,
  target: e.target ?? null,
  data: JSON.stringify(e.data),
});

/**
 * The lock every PostgreSQL transaction that writes events holds from before its first event
 * until it commits. Ids come from a sequence, and a sequence alone hands them out in the order
 * transactions ask, not the order they commit: a reader could see id 8 committed while 7 is
 * still to come, move its cursor past 7, and never see it. Under the lock, a transaction that
 * takes an id commits before the next one can take one, so a reader that sees an id has seen
 * every smaller one. (SQLite runs one write transaction at a time: no lock is needed there.)
 * The proof writer takes it with the log's lock, in one statement (postgres-proof-writer.ts).
 */
export const EVENTS_LOCK_KEY = `hashtext('proof-registry:events:' || current_schema())`;
export const EVENTS_LOCK_SQL = `select pg_advisory_xact_lock(${EVENTS_LOCK_KEY})`;

/** Takes the events lock in `trx` on PostgreSQL; call it before reading state an event describes. */
export async function lockEvents(trx: Knex.Transaction): Promise<void> {
  if (trx.client.dialect === 'postgresql') await trx.raw(EVENTS_LOCK_SQL);
}

/** Writes events inside `trx`, which must hold the events lock (lockEvents). */
export async function insertEvents(trx: Knex.Transaction, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  // 7 values an event: well under SQLite's 32,766 variables and Knex's 500-row compound limit.
  for (let i = 0; i < events.length; i += 400) await trx('events').insert(events.slice(i, i + 400).map(eventRow));
}

/** Where the job `name` has read the events to (`event_cursors`), 0 before its first move. */
export async function readCursor(knex: Knex, name: string): Promise<number> {
  const row = (await knex('event_cursors').select('event_id').where('name', name).first()) as { event_id: number | string } | undefined;
  return row ? Number(row.event_id) : 0;
}

/** Moves the cursor `name` from `from` to `to` inside `trx`; false when it was not at `from`. */
export async function moveCursor(trx: Knex.Transaction, cursor: { readonly name: string; readonly from: number; readonly to: number }): Promise<boolean> {
  const moved = await trx('event_cursors').where({ name: cursor.name, event_id: cursor.from }).update({ event_id: cursor.to });
  if (moved === 1) return true;
  if (cursor.from !== 0) return false;
  // A cursor's first move creates its row; of two first moves racing, one inserts.
  const inserted = await trx('event_cursors').insert({ name: cursor.name, event_id: cursor.to }).onConflict('name').ignore().returning('name');
  return inserted.length === 1;
}
