import type { Knex } from 'knex';
import type { AttemptOutcome, ClaimedDelivery, Delivery, DeliveryAttempt, DeliveryPage, DeliveryQueue, DeliveryState } from '../../application/ports/delivery-queue.js';
import type { StoredEvent } from '../../domain/events/event.js';
import type { Database, Dialect } from './database.js';
import { EVENT_COLUMNS, moveCursor, readCursor, toStoredEvent, type EventRow } from './event-rows.js';
import { toWebhookEndpoint, type EndpointRow } from './knex-webhook-store.js';

/** A `webhook_deliveries` row as the drivers return it (pg: bigint as text; SQLite: booleans as 0/1). */
interface DeliveryRow {
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

interface AttemptRow {
  readonly attempt: number | string;
  readonly at_ms: number | string;
  readonly status_code: number | string | null;
  readonly latency_ms: number | string;
  readonly error: string | null;
  readonly response_excerpt: string | null;
  readonly trigger: string;
}

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

const toDelivery = (r: DeliveryRow): Delivery => ({
  deliveryId: Number(r.id),
  endpointId: r.endpoint_id,
  eventId: Number(r.event_id),
  eventType: r.event_type,
  state: r.state as DeliveryState,
  attempts: Number(r.attempts),
  nextAttemptAtMs: num(r.next_attempt_at_ms),
  lastStatusCode: num(r.last_status_code),
  lastError: r.last_error,
  lastAttemptAtMs: num(r.last_attempt_at_ms),
  createdAtMs: Number(r.created_at_ms),
});

const toAttempt = (r: AttemptRow): DeliveryAttempt => ({
  attempt: Number(r.attempt),
  atMs: Number(r.at_ms),
  statusCode: num(r.status_code),
  latencyMs: Number(r.latency_ms),
  error: r.error,
  responseExcerpt: r.response_excerpt ?? '',
  trigger: r.trigger === 'manual' ? 'manual' : 'scheduled',
});

/** Rows an SQLite statement may carry: 13 values a delivery, under its variable limit and Knex's 500-row compound limit. */
const ROWS_PER_INSERT = 500;

type ClaimArgs = { readonly now: number; readonly until: number; readonly limit: number; readonly perEndpoint: number };

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
 * SQLite runs one write at a time and one statement is a transaction: the whole claim is one
 * UPDATE, which takes the write lock as it starts. Each due delivery's place in its endpoint's
 * line, after the ones already claimed, decides whether it fits under the cap.
 */
const SQLITE_CLAIM = `
update webhook_deliveries set locked_until_ms = :until
 where id in (
   select id from (
     select d.id, d.next_attempt_at_ms,
            row_number() over (partition by d.endpoint_id order by d.next_attempt_at_ms, d.id)
              + (select count(*) from webhook_deliveries b
                  where b.endpoint_id = d.endpoint_id and b.state = 'pending' and b.locked_until_ms >= :now) as place
       from webhook_deliveries d
       join webhook_endpoints e on e.endpoint_id = d.endpoint_id
      where e.enabled and d.state = 'pending' and d.next_attempt_at_ms <= :now
        and (d.locked_until_ms is null or d.locked_until_ms < :now))
    where place <= :perEndpoint
    order by next_attempt_at_ms, id
    limit :limit)
returning *`;

/** How each database claims, and keeps the endpoints it enqueues for from going until it commits. */
interface DialectSteps {
  claim(trx: Knex.Transaction, args: ClaimArgs): Promise<DeliveryRow[]>;
  keepEndpoints(query: Knex.QueryBuilder): Knex.QueryBuilder;
}

const STEPS: Record<Dialect, DialectSteps> = {
  postgres: {
    async claim(trx, args) {
      const locked = (await trx.raw(PG_LOCK_DUE_ENDPOINTS, { now: args.now, perEndpoint: args.perEndpoint, limit: args.limit })) as { rows: Array<{ endpoint_id: string }> };
      if (locked.rows.length === 0) return [];
      const endpoints = locked.rows.map((r) => r.endpoint_id);
      return ((await trx.raw(PG_CLAIM, { ...args, endpoints })) as { rows: DeliveryRow[] }).rows;
    },
    // KEY SHARE: a delete of the endpoint waits for this transaction, so its inserts meet no missing parent.
    keepEndpoints: (query) => query.forKeyShare(),
  },
  sqlite: {
    claim: async (trx, args) => (await trx.raw(SQLITE_CLAIM, { ...args })) as DeliveryRow[],
    keepEndpoints: (query) => query,
  },
};

/** The webhook delivery queue on SQLite or PostgreSQL (`webhook_deliveries`, `webhook_attempts`, `event_cursors`). */
export class KnexDeliveryQueue implements DeliveryQueue {
  private readonly knex: Knex;
  private readonly steps: DialectSteps;

  constructor(db: Pick<Database, 'knex' | 'dialect'>) {
    this.knex = db.knex;
    this.steps = STEPS[db.dialect];
  }

  cursor(name: string): Promise<number> {
    return readCursor(this.knex, name);
  }

  async enqueue(deliveries: readonly { endpointId: string; event: StoredEvent }[], cursor: { name: string; from: number; to: number }, nowMs: number): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      if (!(await moveCursor(trx, cursor))) return false;
      // An endpoint deleted since the fan-out read it gets nothing; the others still do.
      const wanted = [...new Set(deliveries.map((d) => d.endpointId))];
      const existing = new Set<string>();
      for (let i = 0; i < wanted.length; i += ROWS_PER_INSERT) {
        const query = trx('webhook_endpoints').select('endpoint_id').whereIn('endpoint_id', wanted.slice(i, i + ROWS_PER_INSERT));
        for (const r of (await this.steps.keepEndpoints(query)) as Array<{ endpoint_id: string }>) existing.add(r.endpoint_id);
      }
      const rows = deliveries
        .filter((d) => existing.has(d.endpointId))
        .map((d) => ({ endpoint_id: d.endpointId, event_id: d.event.id, event_type: d.event.type, state: 'pending', attempts: 0, next_attempt_at_ms: nowMs, locked_until_ms: null, manual: false, created_at_ms: nowMs }));
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        await trx('webhook_deliveries').insert(rows.slice(i, i + ROWS_PER_INSERT)).onConflict(['endpoint_id', 'event_id']).ignore();
      }
      return true;
    });
  }

  async claim(nowMs: number, lockMs: number, limit: number, perEndpoint: number): Promise<readonly ClaimedDelivery[]> {
    if (limit <= 0 || perEndpoint <= 0) return [];
    return this.knex.transaction(async (trx) => {
      const rows = await this.steps.claim(trx, { now: nowMs, until: nowMs + lockMs, limit, perEndpoint });
      if (rows.length === 0) return [];
      const endpoints = new Map<string, EndpointRow>();
      for (const r of await trx<EndpointRow>('webhook_endpoints').whereIn('endpoint_id', [...new Set(rows.map((d) => d.endpoint_id))])) endpoints.set(r.endpoint_id, r);
      const events = new Map<number, StoredEvent>();
      const eventIds = [...new Set(rows.map((d) => Number(d.event_id)))];
      for (let i = 0; i < eventIds.length; i += ROWS_PER_INSERT) {
        for (const r of await trx<EventRow>('events').select([...EVENT_COLUMNS]).whereIn('id', eventIds.slice(i, i + ROWS_PER_INSERT))) events.set(Number(r.id), toStoredEvent(r));
      }
      return rows
        .map(toClaimRow)
        .sort((a, b) => a.due - b.due || a.delivery.deliveryId - b.delivery.deliveryId)
        .map(({ delivery, manual }) => ({ delivery, endpoint: toWebhookEndpoint(endpoints.get(delivery.endpointId)!), event: events.get(delivery.eventId) ?? null, manual }));
    });
  }

  async record(outcomes: readonly AttemptOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    await this.knex.transaction(async (trx) => {
      // Endpoints in id order, then deliveries in id order: the order a delete takes them in
      // (the endpoint, then its deliveries by cascade), so recording batches and deletes wait
      // for each other instead of deadlocking.
      for (const o of [...outcomes].sort((a, b) => (a.endpointId < b.endpointId ? -1 : a.endpointId > b.endpointId ? 1 : a.attempt.atMs - b.attempt.atMs))) {
        const at = o.attempt.atMs;
        const endpoint = trx('webhook_endpoints').where('endpoint_id', o.endpointId);
        if (o.succeeded) await endpoint.update({ failing_since_ms: null, last_success_at_ms: at });
        else await endpoint.update({ failing_since_ms: trx.raw('coalesce(failing_since_ms, ?)', [at]) });
      }
      for (const o of [...outcomes].sort((a, b) => a.deliveryId - b.deliveryId)) {
        const { attempt } = o;
        const updated = await trx('webhook_deliveries').where('id', o.deliveryId).update({
          attempts: attempt.attempt,
          state: o.state,
          next_attempt_at_ms: o.nextAttemptAtMs,
          locked_until_ms: null,
          manual: false,
          last_status_code: attempt.statusCode,
          last_error: attempt.error,
          last_attempt_at_ms: attempt.atMs,
        });
        // Deleted meanwhile (with its endpoint, or by age): nothing to log it under.
        if (updated === 0) continue;
        // Another instance may have sent and logged the same attempt after our claim ran out: keep its row.
        await trx('webhook_attempts')
          .insert({ delivery_id: o.deliveryId, attempt: attempt.attempt, at_ms: attempt.atMs, status_code: attempt.statusCode, latency_ms: attempt.latencyMs, error: attempt.error, response_excerpt: attempt.responseExcerpt, trigger: attempt.trigger })
          .onConflict(['delivery_id', 'attempt'])
          .ignore();
      }
    });
  }

  async list(wallet: string, endpointId: string, query: { readonly before?: number; readonly limit: number; readonly state?: DeliveryState }): Promise<DeliveryPage | null> {
    if (!(await this.owns(wallet, endpointId))) return null;
    const q = this.knex<DeliveryRow>('webhook_deliveries').where('endpoint_id', endpointId);
    if (query.before !== undefined) q.andWhere('id', '<', query.before);
    if (query.state !== undefined) q.andWhere('state', query.state);
    const rows = await q.orderBy('id', 'desc').limit(query.limit + 1);
    const items = rows.slice(0, query.limit).map(toDelivery);
    return { items, next: rows.length > query.limit && items.length > 0 ? items[items.length - 1]!.deliveryId : null };
  }

  async get(wallet: string, endpointId: string, deliveryId: number): Promise<{ delivery: Delivery; attempts: readonly DeliveryAttempt[] } | null> {
    if (!(await this.owns(wallet, endpointId))) return null;
    const row = await this.knex<DeliveryRow>('webhook_deliveries').where({ id: deliveryId, endpoint_id: endpointId }).first();
    if (!row) return null;
    const attempts = await this.knex<AttemptRow>('webhook_attempts').where('delivery_id', deliveryId).orderBy('attempt', 'asc');
    return { delivery: toDelivery(row), attempts: attempts.map(toAttempt) };
  }

  async redeliver(wallet: string, endpointId: string, deliveryId: number, nowMs: number): Promise<Delivery | null> {
    const rows = (await this.knex('webhook_deliveries')
      .where({ id: deliveryId, endpoint_id: endpointId })
      .whereIn('endpoint_id', this.knex('webhook_endpoints').select('endpoint_id').where({ wallet, endpoint_id: endpointId }))
      .update({ state: 'pending', next_attempt_at_ms: nowMs, locked_until_ms: null, manual: true }, '*')) as unknown as DeliveryRow[];
    return rows[0] ? toDelivery(rows[0]) : null;
  }

  async prune(beforeMs: number, max: number): Promise<number> {
    if (max <= 0) return 0;
    // Their attempts go with them (ON DELETE CASCADE).
    const doomed = this.knex('webhook_deliveries').select('id').where('created_at_ms', '<', beforeMs).orderBy([{ column: 'created_at_ms' }, { column: 'id' }]).limit(max);
    return this.knex('webhook_deliveries').whereIn('id', doomed).delete();
  }

  private async owns(wallet: string, endpointId: string): Promise<boolean> {
    return (await this.knex('webhook_endpoints').select('endpoint_id').where({ wallet, endpoint_id: endpointId }).first()) !== undefined;
  }
}

const toClaimRow = (r: DeliveryRow) => ({ delivery: toDelivery(r), manual: Boolean(r.manual), due: Number(r.next_attempt_at_ms) });
