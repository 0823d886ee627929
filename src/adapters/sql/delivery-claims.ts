import type { Knex } from 'knex';
import type { Dialect } from './database.js';

/**
 * How each database claims due webhook deliveries for one instance (knex-delivery-queue.ts):
 * PostgreSQL with row locks several instances can take side by side, SQLite in one write
 * transaction. Both give each endpoint at most its cap of claimed deliveries.
 */

/** A `webhook_deliveries` row as the drivers return it (pg: bigint as text; SQLite: booleans as 0/1). */
export interface DeliveryRow {
  readonly id: number | string;
  readonly endpoint_id: string;
  readonly event_id: number | string;
  readonly event_type: string;
  readonly state: string;
  readonly attempts: number | string;
  readonly next_attempt_at_ms: number | string | null;
  readonly locked_until_ms: number | string | null;
  readonly manual: boolean | number;
  readonly last_status_code: number | string | null;
  readonly last_error: string | null;
  readonly last_attempt_at_ms: number | string | null;
  readonly created_at_ms: number | string;
}

export type ClaimArgs = { readonly now: number; readonly until: number; readonly limit: number; readonly perEndpoint: number };

/**
 * The endpoints with something due, oldest due first, that are below their cap, locked so that
 * no other instance claims for them until this transaction ends. The cap counts the deliveries
 * already claimed, and rows another instance is claiming right now are invisible to that count
 * until it commits: holding the endpoint makes the count exact. NO KEY UPDATE still lets the
 * foreign-key checks of enqueues through; SKIP LOCKED sends a second claimer to other endpoints
 * instead of waiting. At most `limit` endpoints: each one claimed for gives at least one delivery.
 */
const PG_LOCK_DUE_ENDPOINTS = `
select e.endpoint_id
  from webhook_endpoints e
  join (select endpoint_id, min(next_attempt_at_ms) as due_at
          from webhook_deliveries
         where state = 'pending' and next_attempt_at_ms <= :now and (locked_until_ms is null or locked_until_ms < :now)
         group by endpoint_id) due on due.endpoint_id = e.endpoint_id
 where e.enabled
   and (select count(*) from webhook_deliveries b
         where b.endpoint_id = e.endpoint_id and b.state = 'pending' and b.locked_until_ms >= :now) < :perEndpoint
 order by due.due_at, e.endpoint_id
 limit :limit
   for no key update of e skip locked`;

/**
 * Each locked endpoint's oldest due deliveries, up to its room below the cap, then the oldest
 * of those overall. The deliveries are locked with SKIP LOCKED too: one a late `record` is
 * writing is left for the next claim instead of waited for (the record waits for the endpoint
 * lock we hold: waiting here would be a deadlock). The update checks the row again, so one that
 * changed since it was read is not claimed.
 */
const PG_CLAIM = `
with picked as (
  select d.id
    from unnest(cast(:endpoints as text[])) as ep(endpoint_id)
    cross join lateral (
      select count(*) as n from webhook_deliveries b
       where b.endpoint_id = ep.endpoint_id and b.state = 'pending' and b.locked_until_ms >= :now) busy
    cross join lateral (
      select d.id, d.next_attempt_at_ms from webhook_deliveries d
       where d.endpoint_id = ep.endpoint_id and d.state = 'pending' and d.next_attempt_at_ms <= :now
         and (d.locked_until_ms is null or d.locked_until_ms < :now)
       order by d.next_attempt_at_ms, d.id
       limit greatest(:perEndpoint - busy.n, 0)
         for update skip locked) d
   order by d.next_attempt_at_ms, d.id
   limit :limit)
update webhook_deliveries w set locked_until_ms = :until
  from picked
 where w.id = picked.id and w.state = 'pending' and (w.locked_until_ms is null or w.locked_until_ms < :now)
returning w.*`;

/**
 * SQLite, in one write transaction (SQLite runs one at a time): first the enabled endpoints
 * with something due and room below their cap, oldest due first, each endpoint's claimed
 * deliveries counted once through its line of pending rows (`webhook_deliveries_line`); then
 * each one's oldest due deliveries up to its room. Each step reads what it claims and a line
 * per endpoint, never every delivery for every due one: the write lock is held briefly even
 * with a backlog of thousands, and the proof writer, which waits for that lock, with it.
 */
const SQLITE_DUE_ENDPOINTS = `
select d.endpoint_id,
       (select count(*) from webhook_deliveries b
         where b.endpoint_id = d.endpoint_id and b.state = 'pending' and b.locked_until_ms >= :now) as busy
  from webhook_deliveries d
  join webhook_endpoints e on e.endpoint_id = d.endpoint_id
 where e.enabled and d.state = 'pending' and d.next_attempt_at_ms <= :now
   and (d.locked_until_ms is null or d.locked_until_ms < :now)
 group by d.endpoint_id
having busy < :perEndpoint
 order by min(d.next_attempt_at_ms), d.endpoint_id
 limit :limit`;

const SQLITE_CLAIM_LINE = `
update webhook_deliveries set locked_until_ms = :until
 where id in (
   select id from webhook_deliveries indexed by webhook_deliveries_line
    where endpoint_id = :endpoint and state = 'pending' and next_attempt_at_ms <= :now
      and (locked_until_ms is null or locked_until_ms < :now)
    order by next_attempt_at_ms, id
    limit :room)
returning *`;

/** How each database claims, and keeps the endpoints it enqueues for from going until it commits. */
export interface DialectSteps {
  claim(trx: Knex.Transaction, args: ClaimArgs): Promise<DeliveryRow[]>;
  keepEndpoints(query: Knex.QueryBuilder): Knex.QueryBuilder;
}

export const CLAIM_STEPS: Record<Dialect, DialectSteps> = {
  postgres: {
    async claim(trx, args) {
      const locked = (await trx.raw(PG_LOCK_DUE_ENDPOINTS, { now: args.now, perEndpoint: args.perEndpoint, limit: args.limit })) as {
        rows: Array<{ endpoint_id: string }>;
      };
      if (locked.rows.length === 0) return [];
      const endpoints = locked.rows.map((r) => r.endpoint_id);
      return ((await trx.raw(PG_CLAIM, { ...args, endpoints })) as { rows: DeliveryRow[] }).rows;
    },
    // KEY SHARE: a delete of the endpoint waits for this transaction, so its inserts meet no missing parent.
    keepEndpoints: (query) => query.forKeyShare(),
  },
  sqlite: {
    async claim(trx, args) {
      // A write first, that changes nothing: the transaction takes the write lock now, waiting
      // its turn, instead of failing to upgrade from a read after the writer thread commits.
      await trx.raw('update webhook_deliveries set id = id where 0');
      const due = (await trx.raw(SQLITE_DUE_ENDPOINTS, { now: args.now, perEndpoint: args.perEndpoint, limit: args.limit })) as Array<{
        endpoint_id: string;
        busy: number;
      }>;
      const claimed: DeliveryRow[] = [];
      for (const { endpoint_id: endpoint, busy } of due) {
        const room = Math.min(args.perEndpoint - Number(busy), args.limit - claimed.length);
        if (room <= 0) break;
        claimed.push(...((await trx.raw(SQLITE_CLAIM_LINE, { now: args.now, until: args.until, endpoint, room })) as DeliveryRow[]));
      }
      return claimed;
    },
    keepEndpoints: (query) => query,
  },
};
