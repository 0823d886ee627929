import type { Knex } from 'knex';
import type { ProofBucket, ProofSeriesReader } from '../../application/ports/usage-series.js';
import type { Database } from './database.js';
import { DAY_MS, HOUR_MS } from './wallet-stats-sql.js';
import { walletKeyOf } from './wallet-keys.js';

/**
 * Proofs and distinct devices per bucket. Hours and days (the buckets the series offers) read
 * the counts the proof writers keep by the hour of created_at (migrations/011): a row per hour
 * for the proofs, a row per robot present in each hour or day for the devices, so a request
 * reads a few rows per bucket whatever the number of proofs. Any other bucket is grouped in
 * SQL over one range of the (wallet_id, created_at_ms, proof_id) index. Buckets are counted
 * from `fromMs` (a bucket start), so the offsets are never negative and `%` floors the same
 * way on both dialects, dates before 1970 included.
 */
export class KnexProofSeries implements ProofSeriesReader {
  private readonly knex: Knex;

  constructor(db: Pick<Database, 'knex'>) {
    this.knex = db.knex;
  }

  async buckets(wallet: string, bucketMs: number, fromMs: number, toMs: number): Promise<readonly ProofBucket[]> {
    const aligned = (ms: number) => ((ms % bucketMs) + bucketMs) % bucketMs === 0;
    if ((bucketMs === HOUR_MS || bucketMs === DAY_MS) && aligned(fromMs) && aligned(toMs)) return this.kept(wallet, bucketMs, fromMs, toMs);
    return this.counted(wallet, bucketMs, fromMs, toMs);
  }

  private async kept(wallet: string, bucketMs: number, fromMs: number, toMs: number): Promise<readonly ProofBucket[]> {
    const [table, column] = bucketMs === HOUR_MS ? ['wallet_robot_hours', 'hour_ms'] : ['wallet_robot_days', 'day_ms'];
    const [proofs, devices] = await Promise.all([
      this.knex('wallet_proof_hours')
        .select({ start_ms: this.startOf('hour_ms', bucketMs, fromMs), n: this.knex.raw('sum(proof_count)') })
        .where('wallet', wallet)
        .andWhere('hour_ms', '>=', fromMs)
        .andWhere('hour_ms', '<', toMs)
        .groupByRaw('1')
        .orderByRaw('1') as Promise<Array<{ start_ms: number | string; n: number | string }>>,
      this.knex(table)
        .select({ start_ms: column, n: this.knex.raw('count(*)') })
        .where('wallet', wallet)
        .andWhere(column, '>=', fromMs)
        .andWhere(column, '<', toMs)
        .groupBy(column) as Promise<Array<{ start_ms: number | string; n: number | string }>>,
    ]);
    const active = new Map(devices.map((d) => [Number(d.start_ms), Number(d.n)]));
    return proofs
      .filter((p) => Number(p.n) > 0)
      .map((p) => ({ startMs: Number(p.start_ms), proofs: Number(p.n), devices: active.get(Number(p.start_ms)) ?? 0 }));
  }

  private async counted(wallet: string, bucketMs: number, fromMs: number, toMs: number): Promise<readonly ProofBucket[]> {
    const rows: Array<{ start_ms: number | string; proofs: number | string; devices: number | string }> = await this.knex('proofs')
      .select({
        start_ms: this.startOf('created_at_ms', bucketMs, fromMs),
        proofs: this.knex.raw('count(*)'),
        devices: this.knex.raw('count(distinct robot_id)'),
      })
      .where('wallet_id', walletKeyOf(this.knex, wallet))
      .andWhere('created_at_ms', '>=', fromMs)
      .andWhere('created_at_ms', '<', toMs)
      .groupByRaw('1')
      .orderByRaw('1');
    return rows.map((r) => ({ startMs: Number(r.start_ms), proofs: Number(r.proofs), devices: Number(r.devices) }));
  }

  /** The start of the bucket holding `column`'s value, counted from `fromMs`. */
  private startOf(column: string, bucketMs: number, fromMs: number): Knex.Raw {
    return this.knex.raw('(?? - ?) - ((?? - ?) % ?) + ?', [column, fromMs, column, fromMs, bucketMs, fromMs]);
  }
}
