import type { Knex } from 'knex';
import type { ProofBucket, ProofSeriesReader } from '../../application/ports/usage-series.js';
import type { Database } from './database.js';
import { walletKeyOf } from './wallet-keys.js';

/**
 * Proofs and distinct devices per bucket, grouped in SQL over one range of the (wallet_id,
 * created_at_ms, proof_id) index. Buckets are counted from `fromMs` (a bucket start), so the
 * offsets are never negative and `%` floors the same way on both dialects, dates before 1970
 * included.
 */
export class KnexProofSeries implements ProofSeriesReader {
  private readonly knex: Knex;

  constructor(db: Pick<Database, 'knex'>) {
    this.knex = db.knex;
  }

  async buckets(wallet: string, bucketMs: number, fromMs: number, toMs: number): Promise<readonly ProofBucket[]> {
    const start = this.knex.raw('(created_at_ms - ?) - ((created_at_ms - ?) % ?) + ?', [fromMs, fromMs, bucketMs, fromMs]);
    const rows: Array<{ start_ms: number | string; proofs: number | string; devices: number | string }> = await this.knex('proofs')
      .select({ start_ms: start, proofs: this.knex.raw('count(*)'), devices: this.knex.raw('count(distinct robot_id)') })
      .where('wallet_id', walletKeyOf(this.knex, wallet))
      .andWhere('created_at_ms', '>=', fromMs)
      .andWhere('created_at_ms', '<', toMs)
      .groupByRaw('1')
      .orderByRaw('1');
    return rows.map((r) => ({ startMs: Number(r.start_ms), proofs: Number(r.proofs), devices: Number(r.devices) }));
  }
}
