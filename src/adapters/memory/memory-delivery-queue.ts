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
import type { MemoryEventLog } from './memory-event-log.js';
import type { MemoryWebhookStore } from './memory-webhook-store.js';

interface Entry {
  delivery: Delivery;
  lockedUntilMs: number | null;
  manual: boolean;
  readonly attempts: DeliveryAttempt[];
}

/**
 * In-memory DeliveryQueue for tests and embedding; runs the same contract suite as the SQL
 * queue. It reads endpoints from the store and events from the log it is given, and drops an
 * endpoint's deliveries when the store deletes it, as the database's cascade does. Each call
 * changes its state before its first await, so concurrent calls see each other's claims.
 */
export class MemoryDeliveryQueue implements DeliveryQueue {
  private readonly entries = new Map<number, Entry>();
  private readonly cursors = new Map<string, number>();
  private nextId = 1;

  constructor(
    private readonly endpoints: MemoryWebhookStore,
    private readonly events: MemoryEventLog,
  ) {
    endpoints.onDelete((endpointId) => {
      for (const [id, e] of this.entries) if (e.delivery.endpointId === endpointId) this.entries.delete(id);
    });
  }

  async cursor(name: string): Promise<number> {
    return this.cursors.get(name) ?? 0;
  }

  async enqueue(
    deliveries: readonly { endpointId: string; event: StoredEvent }[],
    cursor: { name: string; from: number; to: number },
    nowMs: number,
  ): Promise<boolean> {
    if ((this.cursors.get(cursor.name) ?? 0) !== cursor.from) return false;
    this.cursors.set(cursor.name, cursor.to);
    const present = new Set([...this.entries.values()].map((e) => `${e.delivery.endpointId} ${e.delivery.eventId}`));
    for (const { endpointId, event } of deliveries) {
      const key = `${endpointId} ${event.id}`;
      if (present.has(key) || this.endpoints.find(endpointId) === null) continue;
      present.add(key);
      const deliveryId = this.nextId++;
      this.entries.set(deliveryId, {
        delivery: {
          deliveryId,
          endpointId,
          eventId: event.id,
          eventType: event.type,
          state: 'pending',
          attempts: 0,
          nextAttemptAtMs: nowMs,
          lastStatusCode: null,
          lastError: null,
          lastAttemptAtMs: null,
          createdAtMs: nowMs,
        },
        lockedUntilMs: null,
        manual: false,
        attempts: [],
      });
    }
    return true;
  }

  async claim(nowMs: number, lockMs: number, limit: number, perEndpoint: number): Promise<readonly ClaimedDelivery[]> {
    const busy = new Map<string, number>();
    for (const e of this.entries.values()) {
      if (e.delivery.state === 'pending' && e.lockedUntilMs !== null && e.lockedUntilMs >= nowMs)
        busy.set(e.delivery.endpointId, (busy.get(e.delivery.endpointId) ?? 0) + 1);
    }
    const due = [...this.entries.values()]
      .filter(
        (e) =>
          e.delivery.state === 'pending' &&
          e.delivery.nextAttemptAtMs !== null &&
          e.delivery.nextAttemptAtMs <= nowMs &&
          (e.lockedUntilMs === null || e.lockedUntilMs < nowMs),
      )
      .filter((e) => this.endpoints.find(e.delivery.endpointId)?.enabled === true)
      .sort((a, b) => a.delivery.nextAttemptAtMs! - b.delivery.nextAttemptAtMs! || a.delivery.deliveryId - b.delivery.deliveryId);
    const claimed: Entry[] = [];
    for (const e of due) {
      if (claimed.length >= limit) break;
      const held = busy.get(e.delivery.endpointId) ?? 0;
      if (held >= perEndpoint) continue;
      busy.set(e.delivery.endpointId, held + 1);
      e.lockedUntilMs = nowMs + lockMs;
      claimed.push(e);
    }
    const events = new Map((await this.events.byIds(claimed.map((e) => e.delivery.eventId))).map((ev) => [ev.id, ev]));
    return claimed.map((e) => ({
      delivery: { ...e.delivery },
      endpoint: this.endpoints.find(e.delivery.endpointId)!,
      event: events.get(e.delivery.eventId) ?? null,
      manual: e.manual,
    }));
  }

  async record(outcomes: readonly AttemptOutcome[]): Promise<void> {
    // In the order the attempts were made: the endpoint's streak is where the last one left it.
    for (const o of [...outcomes].sort((a, b) => a.attempt.atMs - b.attempt.atMs)) {
      const e = this.entries.get(o.deliveryId);
      if (!e) continue;
      e.delivery = {
        ...e.delivery,
        attempts: o.attempt.attempt,
        state: o.state,
        nextAttemptAtMs: o.nextAttemptAtMs,
        lastStatusCode: o.attempt.statusCode,
        lastError: o.attempt.error,
        lastAttemptAtMs: o.attempt.atMs,
      };
      e.lockedUntilMs = null;
      e.manual = false;
      if (!e.attempts.some((a) => a.attempt === o.attempt.attempt)) e.attempts.push({ ...o.attempt });
    }
    // In time order, as the SQL queue applies them: the streak is the latest answer's.
    for (const o of [...outcomes].sort((a, b) => a.attempt.atMs - b.attempt.atMs)) this.endpoints.noteAttempt(o.endpointId, o.succeeded, o.attempt.atMs);
  }

  async list(
    wallet: string,
    endpointId: string,
    query: { readonly before?: number; readonly limit: number; readonly state?: DeliveryState },
  ): Promise<DeliveryPage | null> {
    if (!this.owns(wallet, endpointId)) return null;
    const { before, state } = query;
    const matching = [...this.entries.values()]
      .map((e) => e.delivery)
      .filter((d) => d.endpointId === endpointId && (before === undefined || d.deliveryId < before) && (state === undefined || d.state === state))
      .sort((a, b) => b.deliveryId - a.deliveryId);
    const items = matching.slice(0, query.limit).map((d) => ({ ...d }));
    return { items, next: matching.length > query.limit && items.length > 0 ? items[items.length - 1]!.deliveryId : null };
  }

  async get(wallet: string, endpointId: string, deliveryId: number): Promise<{ delivery: Delivery; attempts: readonly DeliveryAttempt[] } | null> {
    const e = this.owned(wallet, endpointId, deliveryId);
    if (!e) return null;
    return { delivery: { ...e.delivery }, attempts: [...e.attempts].sort((a, b) => a.attempt - b.attempt).map((a) => ({ ...a })) };
  }

  async redeliver(wallet: string, endpointId: string, deliveryId: number, nowMs: number): Promise<Delivery | null> {
    const e = this.owned(wallet, endpointId, deliveryId);
    if (!e) return null;
    e.delivery = { ...e.delivery, state: 'pending', nextAttemptAtMs: nowMs };
    e.lockedUntilMs = null;
    e.manual = true;
    return { ...e.delivery };
  }

  async prune(beforeMs: number, max: number): Promise<number> {
    const doomed = [...this.entries.values()]
      .map((e) => e.delivery)
      .filter((d) => d.createdAtMs < beforeMs)
      .sort((a, b) => a.createdAtMs - b.createdAtMs || a.deliveryId - b.deliveryId)
      .slice(0, Math.max(0, max));
    for (const d of doomed) this.entries.delete(d.deliveryId);
    return doomed.length;
  }

  private owns(wallet: string, endpointId: string): boolean {
    return this.endpoints.find(endpointId)?.wallet === wallet;
  }

  private owned(wallet: string, endpointId: string, deliveryId: number): Entry | undefined {
    const e = this.entries.get(deliveryId);
    return this.owns(wallet, endpointId) && e?.delivery.endpointId === endpointId ? e : undefined;
  }
}
