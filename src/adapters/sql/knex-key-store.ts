import type { Knex } from 'knex';
import type { ApiKeyRecord, KeyChange, KeyStore, KeyUsageDelta } from '../../application/ports/key-store.js';
import { keyCreated, keyDeleted, keyUpdated } from '../../domain/events/announcements.js';
import { isScope, type Scope } from '../../domain/identity/key-grant.js';
import type { Database } from './database.js';
import { insertEvents, lockEvents } from './event-rows.js';

/** An `api_keys` row as the drivers return it (pg gives bigint as a string). */
interface KeyRow {
  readonly key_id: string;
  readonly wallet: string;
  readonly name: string;
  readonly prefix: string;
  readonly key_hash: string;
  readonly created_at_ms: number | string;
  readonly last_used_at_ms: number | string | null;
  readonly request_count: number | string;
  readonly error_count: number | string;
  readonly scopes: string | null;
  readonly robot_ids: string | null;
  readonly expires_at_ms: number | string | null;
  readonly disabled_at_ms: number | string | null;
}

const msOrNull = (v: number | string | null): number | null => (v === null ? null : Number(v));

const toRecord = (r: KeyRow): ApiKeyRecord => ({
  keyId: r.key_id,
  wallet: r.wallet,
  name: r.name,
  prefix: r.prefix,
  keyHash: r.key_hash,
  createdAtMs: Number(r.created_at_ms),
  lastUsedAtMs: msOrNull(r.last_used_at_ms),
  requestCount: Number(r.request_count),
  errorCount: Number(r.error_count),
  // Only this store writes these columns; a scope a later version dropped is not kept.
  scopes: r.scopes === null ? null : r.scopes.split(' ').filter((s): s is Scope => isScope(s)),
  robotIds: r.robot_ids === null ? null : (JSON.parse(r.robot_ids) as string[]),
  expiresAtMs: msOrNull(r.expires_at_ms),
  disabledAtMs: msOrNull(r.disabled_at_ms),
});

/** KeyStore on SQLite or PostgreSQL. */
export class KnexKeyStore implements KeyStore {
  private readonly knex: Knex;
  private readonly reader: Knex;

  constructor(db: Pick<Database, 'knex'> & Partial<Pick<Database, 'reader'>>) {
    this.knex = db.knex;
    // Every authenticated request looks its key up: that read must not wait for proof writes.
    this.reader = db.reader ?? db.knex;
  }

  async create(r: ApiKeyRecord): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await lockEvents(trx);
      await trx('api_keys').insert({
        key_id: r.keyId,
        wallet: r.wallet,
        name: r.name,
        prefix: r.prefix,
        key_hash: r.keyHash,
        created_at_ms: r.createdAtMs,
        last_used_at_ms: null,
        request_count: 0,
        error_count: 0,
        scopes: r.scopes === null ? null : r.scopes.join(' '),
        robot_ids: r.robotIds === null ? null : JSON.stringify(r.robotIds),
        expires_at_ms: r.expiresAtMs,
        disabled_at_ms: r.disabledAtMs,
      });
      await insertEvents(trx, [keyCreated(r)]);
    });
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const row = await this.reader<KeyRow>('api_keys').where({ key_hash: keyHash }).first();
    return row ? toRecord(row) : null;
  }

  async listByWallet(wallet: string): Promise<ApiKeyRecord[]> {
    const rows = await this.knex<KeyRow>('api_keys')
      .where({ wallet })
      .orderBy([{ column: 'created_at_ms' }, { column: 'key_id' }]);
    return rows.map(toRecord);
  }

  async countByWallet(wallet: string): Promise<number> {
    const [row] = await this.knex('api_keys').where({ wallet }).count({ n: '*' });
    return Number((row as { n: number | string } | undefined)?.n ?? 0);
  }

  async delete(wallet: string, keyId: string, atMs: number): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      await lockEvents(trx);
      const row = await trx<KeyRow>('api_keys').where({ wallet, key_id: keyId }).first();
      if (!row) return false;
      await trx('api_keys').where({ wallet, key_id: keyId }).delete();
      await insertEvents(trx, [keyDeleted(toRecord(row), atMs)]);
      return true;
    });
  }

  async update(wallet: string, keyId: string, change: KeyChange, atMs: number): Promise<ApiKeyRecord | null> {
    return this.knex.transaction(async (trx) => {
      await lockEvents(trx);
      const row = await trx<KeyRow>('api_keys').where({ wallet, key_id: keyId }).first();
      if (!row) return null;
      const before = toRecord(row);
      const after: ApiKeyRecord = {
        ...before,
        name: change.name ?? before.name,
        disabledAtMs: change.enabled === undefined ? before.disabledAtMs : change.enabled ? null : (before.disabledAtMs ?? atMs),
      };
      const event = keyUpdated(before, after, atMs);
      if (event === null) return after;
      await trx('api_keys').where({ wallet, key_id: keyId }).update({ name: after.name, disabled_at_ms: after.disabledAtMs });
      await insertEvents(trx, [event]);
      return after;
    });
  }

  async addUsage(deltas: readonly KeyUsageDelta[]): Promise<void> {
    if (deltas.length === 0) return;
    await this.knex.transaction(async (trx) => {
      for (const d of deltas) {
        // Increments in SQL, so concurrent flushes from several instances add up; the last-used
        // time only ever moves forward.
        await trx('api_keys')
          .where({ key_id: d.keyId })
          .update({
            request_count: trx.raw('request_count + ?', [d.requests]),
            error_count: trx.raw('error_count + ?', [d.errors]),
            last_used_at_ms: trx.raw('case when last_used_at_ms is null or last_used_at_ms < ? then ? else last_used_at_ms end', [
              d.lastUsedAtMs,
              d.lastUsedAtMs,
            ]),
          });
      }
    });
  }
}
