import type { Knex } from 'knex';
import type { KeyDayUsage, KeyEndpointDayUsage, KeyUsageHistory } from '../../application/ports/usage-series.js';
import type { Database } from './database.js';

/** Rows per upsert statement: well under SQLite's variable limit. */
const ROWS_PER_STATEMENT = 200;
const num = (v: number | string) => Number(v);

/** KeyUsageHistory on `api_key_usage_daily` and `api_key_endpoint_usage_daily` (migrations 006 and 017). */
export class KnexKeyUsageHistory implements KeyUsageHistory {
  private readonly knex: Knex;

  constructor(db: Pick<Database, 'knex'>) {
    this.knex = db.knex;
  }

  async add(rows: readonly KeyDayUsage[]): Promise<void> {
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
      const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
      // Increments in SQL, so flushes from several instances add up.
      await this.knex('api_key_usage_daily')
        .insert(chunk.map((r) => ({ key_id: r.keyId, day_ms: r.dayMs, request_count: r.requests, error_count: r.errors })))
        .onConflict(['key_id', 'day_ms'])
        .merge({
          request_count: this.knex.raw('api_key_usage_daily.request_count + excluded.request_count'),
          error_count: this.knex.raw('api_key_usage_daily.error_count + excluded.error_count'),
        });
    }
  }

  async addByEndpoint(rows: readonly KeyEndpointDayUsage[]): Promise<void> {
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
      const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
      await this.knex('api_key_endpoint_usage_daily')
        .insert(chunk.map((r) => ({ key_id: r.keyId, day_ms: r.dayMs, endpoint: r.endpoint, request_count: r.requests, error_count: r.errors })))
        .onConflict(['key_id', 'day_ms', 'endpoint'])
        .merge({
          request_count: this.knex.raw('api_key_endpoint_usage_daily.request_count + excluded.request_count'),
          error_count: this.knex.raw('api_key_endpoint_usage_daily.error_count + excluded.error_count'),
        });
    }
  }

  async endpointDays(keyId: string, fromDayMs: number, toDayMs: number): Promise<readonly KeyEndpointDayUsage[]> {
    const rows: Array<{ day_ms: number | string; endpoint: string; request_count: number | string; error_count: number | string }> = await this.knex(
      'api_key_endpoint_usage_daily',
    )
      .select('day_ms', 'endpoint', 'request_count', 'error_count')
      .where('key_id', keyId)
      .andWhere('day_ms', '>=', fromDayMs)
      .andWhere('day_ms', '<', toDayMs)
      .orderBy([{ column: 'day_ms' }, { column: 'endpoint' }]);
    return rows.map((r) => ({ keyId, dayMs: num(r.day_ms), endpoint: r.endpoint, requests: num(r.request_count), errors: num(r.error_count) }));
  }

  async days(keyId: string, fromDayMs: number, toDayMs: number): Promise<readonly KeyDayUsage[]> {
    const rows: Array<{ day_ms: number | string; request_count: number | string; error_count: number | string }> = await this.knex('api_key_usage_daily')
      .select('day_ms', 'request_count', 'error_count')
      .where('key_id', keyId)
      .andWhere('day_ms', '>=', fromDayMs)
      .andWhere('day_ms', '<', toDayMs)
      .orderBy('day_ms');
    return rows.map((r) => ({ keyId, dayMs: num(r.day_ms), requests: num(r.request_count), errors: num(r.error_count) }));
  }
}
