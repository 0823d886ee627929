import type { Knex } from 'knex';
import type { EndpointChanges, WebhookStore } from '../../application/ports/webhook-store.js';
import type { EventType } from '../../domain/events/event.js';
import type { WebhookEndpoint } from '../../domain/events/webhook.js';
import type { Database, Dialect } from './database.js';

/** A `webhook_endpoints` row as the drivers return it (pg: bigint as text; SQLite: booleans as 0/1). */
export interface EndpointRow {
  readonly endpoint_id: string;
  readonly wallet: string;
  readonly url: string;
  readonly description: string | null;
  readonly event_types: string | null;
  readonly enabled: boolean | number;
  readonly disabled_reason: string | null;
  readonly secret: string;
  readonly previous_secret: string | null;
  readonly previous_secret_until_ms: number | string | null;
  readonly created_at_ms: number | string;
  readonly updated_at_ms: number | string;
  readonly failing_since_ms: number | string | null;
  readonly last_success_at_ms: number | string | null;
}

const ms = (v: number | string | null): number | null => (v === null ? null : Number(v));

export const toWebhookEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  endpointId: r.endpoint_id,
  wallet: r.wallet,
  url: r.url,
  description: r.description,
  eventTypes: r.event_types === null ? null : (JSON.parse(r.event_types) as EventType[]),
  enabled: Boolean(r.enabled),
  disabledReason: r.disabled_reason,
  secret: r.secret,
  previousSecret: r.previous_secret,
  previousSecretUntilMs: ms(r.previous_secret_until_ms),
  createdAtMs: Number(r.created_at_ms),
  updatedAtMs: Number(r.updated_at_ms),
  failingSinceMs: ms(r.failing_since_ms),
  lastSuccessAtMs: ms(r.last_success_at_ms),
});

const eventTypesText = (types: readonly EventType[] | null): string | null => (types === null ? null : JSON.stringify(types));

const endpointRow = (e: WebhookEndpoint): EndpointRow => ({
  endpoint_id: e.endpointId,
  wallet: e.wallet,
  url: e.url,
  description: e.description,
  event_types: eventTypesText(e.eventTypes),
  enabled: e.enabled,
  disabled_reason: e.disabledReason,
  secret: e.secret,
  previous_secret: e.previousSecret,
  previous_secret_until_ms: e.previousSecretUntilMs,
  created_at_ms: e.createdAtMs,
  updated_at_ms: e.updatedAtMs,
  failing_since_ms: e.failingSinceMs,
  last_success_at_ms: e.lastSuccessAtMs,
});

/**
 * Makes a wallet's creates take turns, so two racing creates cannot both count 19 and both
 * insert. PostgreSQL: a row lock would not do, since a wallet with no endpoint yet has no row
 * to lock; an advisory lock keyed by the wallet does, until the transaction ends. SQLite: a
 * transaction that has read cannot start writing once another connection (the proof writer
 * thread) has committed since, so a write that changes nothing takes the write lock first.
 */
const SERIALIZE_CREATES: Record<Dialect, (trx: Knex.Transaction, wallet: string) => Promise<unknown>> = {
  postgres: (trx, wallet) => trx.raw(`select pg_advisory_xact_lock(hashtext('proof-registry:webhooks:' || ?))`, [wallet]),
  sqlite: (trx) => trx.raw('update webhook_endpoints set url = url where 0'),
};

/** WebhookStore on SQLite or PostgreSQL (`webhook_endpoints`, migration 016). */
export class KnexWebhookStore implements WebhookStore {
  private readonly knex: Knex;
  private readonly serializeCreates: (trx: Knex.Transaction, wallet: string) => Promise<unknown>;

  constructor(db: Pick<Database, 'knex' | 'dialect'>) {
    this.knex = db.knex;
    this.serializeCreates = SERIALIZE_CREATES[db.dialect];
  }

  async create(endpoint: WebhookEndpoint, max: number): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      await this.serializeCreates(trx, endpoint.wallet);
      const [row] = await trx('webhook_endpoints').where('wallet', endpoint.wallet).count({ n: '*' });
      if (Number((row as { n: number | string } | undefined)?.n ?? 0) >= max) return false;
      await trx('webhook_endpoints').insert(endpointRow(endpoint));
      return true;
    });
  }

  async list(wallet: string): Promise<readonly WebhookEndpoint[]> {
    const rows = await this.knex<EndpointRow>('webhook_endpoints')
      .where('wallet', wallet)
      .orderBy([{ column: 'created_at_ms' }, { column: 'endpoint_id' }]);
    return rows.map(toWebhookEndpoint);
  }

  async get(wallet: string, endpointId: string): Promise<WebhookEndpoint | null> {
    const row = await this.knex<EndpointRow>('webhook_endpoints').where({ wallet, endpoint_id: endpointId }).first();
    return row ? toWebhookEndpoint(row) : null;
  }

  async update(wallet: string, endpointId: string, changes: EndpointChanges, atMs: number): Promise<WebhookEndpoint | null> {
    const set: Record<string, unknown> = { updated_at_ms: atMs };
    if (changes.url !== undefined) set.url = changes.url;
    if (changes.description !== undefined) set.description = changes.description;
    if (changes.eventTypes !== undefined) set.event_types = eventTypesText(changes.eventTypes);
    if (changes.enabled !== undefined) {
      set.enabled = changes.enabled;
      // The owner's own switch: no reason of the registry's stays on it either way, and one
      // turned back on starts a fresh streak, or the next failure would disable it at once.
      set.disabled_reason = null;
      if (changes.enabled) set.failing_since_ms = null;
    }
    return this.changed(wallet, endpointId, set);
  }

  async rotateSecret(wallet: string, endpointId: string, secret: string, previousUntilMs: number, atMs: number): Promise<WebhookEndpoint | null> {
    // Both sides of an UPDATE see the row as it was: the previous secret is the one replaced.
    return this.changed(wallet, endpointId, {
      previous_secret: this.knex.ref('secret'),
      secret,
      previous_secret_until_ms: previousUntilMs,
      updated_at_ms: atMs,
    });
  }

  async delete(wallet: string, endpointId: string): Promise<boolean> {
    // Deliveries and attempts go with it (ON DELETE CASCADE; SQLite connections enforce foreign keys).
    return (await this.knex('webhook_endpoints').where({ wallet, endpoint_id: endpointId }).delete()) > 0;
  }

  async enabledEndpoints(): Promise<readonly WebhookEndpoint[]> {
    const rows = await this.knex<EndpointRow>('webhook_endpoints')
      .where('enabled', true)
      .orderBy([{ column: 'created_at_ms' }, { column: 'endpoint_id' }]);
    return rows.map(toWebhookEndpoint);
  }

  async disable(endpointId: string, reason: string, atMs: number): Promise<void> {
    // Only an enabled endpoint: one its owner turned off meanwhile keeps saying so, not the registry's reason.
    await this.knex('webhook_endpoints')
      .where({ endpoint_id: endpointId, enabled: true })
      .update({ enabled: false, disabled_reason: reason, updated_at_ms: atMs });
  }

  private async changed(wallet: string, endpointId: string, set: Record<string, unknown>): Promise<WebhookEndpoint | null> {
    const rows = await this.knex<EndpointRow>('webhook_endpoints').where({ wallet, endpoint_id: endpointId }).update(set, '*');
    const row = (rows as unknown as EndpointRow[])[0];
    return row ? toWebhookEndpoint(row) : null;
  }
}
