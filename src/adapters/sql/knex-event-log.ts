import type { Knex } from 'knex';
import type { EventPage, EventLog, WalletEventQuery } from '../../application/ports/event-log.js';
import type { NewEvent, StoredEvent } from '../../domain/events/event.js';
import type { Database } from './database.js';
import { EVENT_COLUMNS, insertEvents, lockEvents, moveCursor, readCursor, toStoredEvent, type EventRow } from './event-rows.js';

/** The outbox on SQLite or PostgreSQL (`events`, migration 016). */
export class KnexEventLog implements EventLog {
  private readonly knex: Knex;
  private readonly reader: Knex;

  constructor(db: Pick<Database, 'knex'> & Partial<Pick<Database, 'reader'>>) {
    this.knex = db.knex;
    // Streams and feeds read often: on their own connections, never queued behind writes.
    this.reader = db.reader ?? db.knex;
  }

  async append(events: readonly NewEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.knex.transaction(async (trx) => {
      await lockEvents(trx);
      await insertEvents(trx, events);
    });
  }

  async walletEvents(wallet: string, afterId: number, query: WalletEventQuery): Promise<EventPage> {
    const q = this.reader<EventRow>('events')
      .select([...EVENT_COLUMNS])
      .where('wallet', wallet)
      .andWhere('id', '>', afterId)
      .whereNull('target');
    if (query.types && query.types.length > 0) q.whereIn('type', [...query.types]);
    if (query.beforeId !== undefined) q.andWhere('id', '<', query.beforeId);
    const rows = await q.orderBy('id', query.order ?? 'asc').limit(query.limit + 1);
    return { items: rows.slice(0, query.limit).map(toStoredEvent), hasMore: rows.length > query.limit };
  }

  async allEvents(afterId: number, limit: number): Promise<readonly StoredEvent[]> {
    const rows = await this.reader<EventRow>('events')
      .select([...EVENT_COLUMNS])
      .where('id', '>', afterId)
      .orderBy('id', 'asc')
      .limit(limit);
    return rows.map(toStoredEvent);
  }

  async byIds(ids: readonly number[]): Promise<readonly StoredEvent[]> {
    const out: StoredEvent[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.reader<EventRow>('events')
        .select([...EVENT_COLUMNS])
        .whereIn('id', ids.slice(i, i + 500));
      out.push(...rows.map(toStoredEvent));
    }
    return out.sort((a, b) => a.id - b.id);
  }

  async lastId(): Promise<number> {
    const row = (await this.reader('events').max({ id: 'id' }).first()) as { id: number | string | null } | undefined;
    return row?.id === null || row?.id === undefined ? 0 : Number(row.id);
  }

  cursor(name: string): Promise<number> {
    return readCursor(this.knex, name);
  }

  async appendMovingCursor(events: readonly NewEvent[], cursor: { name: string; from: number; to: number }): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      await lockEvents(trx);
      if (!(await moveCursor(trx, cursor))) return false;
      await insertEvents(trx, events);
      return true;
    });
  }

  async prune(beforeMs: number, max: number): Promise<number> {
    // Oldest first along the key: events are written in time order, so the old ones are a prefix.
    const doomed = this.knex('events').select('id').where('at_ms', '<', beforeMs).orderBy('id', 'asc').limit(max);
    return this.knex('events').whereIn('id', doomed).delete();
  }
}
