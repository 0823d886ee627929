import type { Knex } from 'knex';
import type {
  AttemptOutcome,
  ClaimedDelivery,
  Delivery,
  DeliveryAttempt,
  DeliveryPage,
  DeliveryQueue,
  DeliveryState,
} from '../../application/ports/delivery-queue.js';
import type { StoredEvent } from '../../domain/events/event.js';
import type { Database } from './database.js';
import { EVENT_COLUMNS, moveCursor, readCursor, toStoredEvent, type EventRow } from './event-rows.js';
import { CLAIM_STEPS, type DeliveryRow, type DialectSteps } from './delivery-claims.js';
import { toWebhookEndpoint, type EndpointRow } from './knex-webhook-store.js';

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
/** 8 values an attempt: well under SQLite's variable limit. */
const ATTEMPT_ROWS_PER_INSERT = 400;
/** 7 values an outcome. */
const OUTCOME_ROWS_PER_UPDATE = 400;

/**
 * Each delivery's new state from its attempt, many rows in one statement (both databases take
 * UPDATE … FROM a VALUES list): a statement a delivery was most of what recording cost. The
 * casts give PostgreSQL the VALUES columns' types; SQLite takes them as they are.
 */
const outcomesUpdateSql = (rows: number) => `
with outcome (id, attempts, state, next_attempt_at_ms, last_status_code, last_error, last_attempt_at_ms) as (
  values ${Array.from({ length: rows }, () => '(cast(? as bigint), cast(? as integer), cast(? as text), cast(? as bigint), cast(? as integer), cast(? as text), cast(? as bigint))').join(', ')})
update webhook_deliveries
   set attempts = outcome.attempts, state = outcome.state, next_attempt_at_ms = outcome.next_attempt_at_ms, locked_until_ms = null,
       manual = ?, last_status_code = outcome.last_status_code, last_error = outcome.last_error, last_attempt_at_ms = outcome.last_attempt_at_ms
  from outcome
 where webhook_deliveries.id = outcome.id
returning webhook_deliveries.id`;

const groupBy = <T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> => {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
};

/** The webhook delivery queue on SQLite or PostgreSQL (`webhook_deliveries`, `webhook_attempts`, `event_cursors`). */
export class KnexDeliveryQueue implements DeliveryQueue {
  private readonly knex: Knex;
  private readonly steps: DialectSteps;

  private readonly postgres: boolean;

  constructor(db: Pick<Database, 'knex' | 'dialect'>) {
    this.knex = db.knex;
    this.postgres = db.dialect === 'postgres';
    this.steps = CLAIM_STEPS[db.dialect];
  }

  cursor(name: string): Promise<number> {
    return readCursor(this.knex, name);
  }

  async enqueue(
    deliveries: readonly { endpointId: string; event: StoredEvent }[],
    cursor: { name: string; from: number; to: number },
    nowMs: number,
  ): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      if (!(await moveCursor(trx, cursor))) return false;
      // An endpoint deleted since the fan-out read it gets nothing; the others still do.
      const wanted = [...new Set(deliveries.map((d) => d.endpointId))];
      const existing = new Set<string>();
      for (let i = 0; i < wanted.length; i += ROWS_PER_INSERT) {
        const query = trx('webhook_endpoints')
          .select('endpoint_id')
          .whereIn('endpoint_id', wanted.slice(i, i + ROWS_PER_INSERT));
        for (const r of (await this.steps.keepEndpoints(query)) as Array<{ endpoint_id: string }>) existing.add(r.endpoint_id);
      }
      const rows = deliveries
        .filter((d) => existing.has(d.endpointId))
        .map((d) => ({
          endpoint_id: d.endpointId,
          event_id: d.event.id,
          event_type: d.event.type,
          state: 'pending',
          attempts: 0,
          next_attempt_at_ms: nowMs,
          locked_until_ms: null,
          manual: false,
          created_at_ms: nowMs,
        }));
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        await trx('webhook_deliveries')
          .insert(rows.slice(i, i + ROWS_PER_INSERT))
          .onConflict(['endpoint_id', 'event_id'])
          .ignore();
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
      for (const r of await trx<EndpointRow>('webhook_endpoints').whereIn('endpoint_id', [...new Set(rows.map((d) => d.endpoint_id))]))
        endpoints.set(r.endpoint_id, r);
      const events = new Map<number, StoredEvent>();
      const eventIds = [...new Set(rows.map((d) => Number(d.event_id)))];
      for (let i = 0; i < eventIds.length; i += ROWS_PER_INSERT) {
        for (const r of await trx<EventRow>('events')
          .select([...EVENT_COLUMNS])
          .whereIn('id', eventIds.slice(i, i + ROWS_PER_INSERT)))
          events.set(Number(r.id), toStoredEvent(r));
      }
      return rows
        .map(toClaimRow)
        .sort((a, b) => a.due - b.due || a.delivery.deliveryId - b.delivery.deliveryId)
        .map(({ delivery, manual }) => ({
          delivery,
          endpoint: toWebhookEndpoint(endpoints.get(delivery.endpointId)!),
          event: events.get(delivery.eventId) ?? null,
          manual,
        }));
    });
  }

  async record(outcomes: readonly AttemptOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    await this.knex.transaction(async (trx) => {
      // Endpoints in id order, then deliveries in id order: the order a delete takes them in
      // (the endpoint, then its deliveries by cascade), so recording batches and deletes wait
      // for each other instead of deadlocking.
      // One update an endpoint, as if its attempts were recorded in the order they were made: a
      // success ends the streak, and a failure after the last success starts one (or goes on).
      for (const [endpointId, theirs] of [...groupBy(outcomes, (o) => o.endpointId)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const successes = theirs.filter((o) => o.succeeded).map((o) => o.attempt.atMs);
        const endpoint = trx('webhook_endpoints').where('endpoint_id', endpointId);
        if (successes.length > 0) {
          const lastSuccess = Math.max(...successes);
          const after = theirs.filter((o) => !o.succeeded && o.attempt.atMs > lastSuccess).map((o) => o.attempt.atMs);
          await endpoint.update({ failing_since_ms: after.length > 0 ? Math.min(...after) : null, last_success_at_ms: lastSuccess });
        } else await endpoint.update({ failing_since_ms: trx.raw('coalesce(failing_since_ms, ?)', [Math.min(...theirs.map((o) => o.attempt.atMs))]) });
      }
      const sorted = [...outcomes].sort((a, b) => a.deliveryId - b.deliveryId);
      const updated = new Set<number>();
      for (let i = 0; i < sorted.length; i += OUTCOME_ROWS_PER_UPDATE) {
        const chunk = sorted.slice(i, i + OUTCOME_ROWS_PER_UPDATE);
        const ids = chunk.map((o) => o.deliveryId);
        // In id order, as a delete takes them; one UPDATE's own order is its plan's.
        if (this.postgres) await trx.raw(`select id from webhook_deliveries where id in (${ids.map(() => '?').join(', ')}) order by id for no key update`, ids);
        const values = chunk.flatMap(({ deliveryId, state, nextAttemptAtMs, attempt: a }) => [
          deliveryId,
          a.attempt,
          state,
          nextAttemptAtMs,
          a.statusCode,
          a.error,
          a.atMs,
        ]);
        const result = (await trx.raw(outcomesUpdateSql(chunk.length), [...values, false])) as
          Array<{ id: number | string }> | { rows: Array<{ id: number | string }> };
        for (const r of Array.isArray(result) ? result : result.rows) updated.add(Number(r.id));
      }
      // Deleted meanwhile (with its endpoint, or by age): nothing to log it under.
      const logged = sorted.filter((o) => updated.has(o.deliveryId));
      // The attempts in a few statements; another instance may have sent and logged the same
      // attempt after our claim ran out: its row is kept.
      for (let i = 0; i < logged.length; i += ATTEMPT_ROWS_PER_INSERT) {
        await trx('webhook_attempts')
          .insert(
            logged.slice(i, i + ATTEMPT_ROWS_PER_INSERT).map(({ deliveryId, attempt: a }) => ({
              delivery_id: deliveryId,
              attempt: a.attempt,
              at_ms: a.atMs,
              status_code: a.statusCode,
              latency_ms: a.latencyMs,
              error: a.error,
              response_excerpt: a.responseExcerpt,
              trigger: a.trigger,
            })),
          )
          .onConflict(['delivery_id', 'attempt'])
          .ignore();
      }
    });
  }

  async list(
    wallet: string,
    endpointId: string,
    query: { readonly before?: number; readonly limit: number; readonly state?: DeliveryState },
  ): Promise<DeliveryPage | null> {
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
    const doomed = this.knex('webhook_deliveries')
      .select('id')
      .where('created_at_ms', '<', beforeMs)
      .orderBy([{ column: 'created_at_ms' }, { column: 'id' }])
      .limit(max);
    return this.knex('webhook_deliveries').whereIn('id', doomed).delete();
  }

  private async owns(wallet: string, endpointId: string): Promise<boolean> {
    return (await this.knex('webhook_endpoints').select('endpoint_id').where({ wallet, endpoint_id: endpointId }).first()) !== undefined;
  }
}

const toClaimRow = (r: DeliveryRow) => ({ delivery: toDelivery(r), manual: Boolean(r.manual), due: Number(r.next_attempt_at_ms) });
