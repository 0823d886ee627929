import type { Knex } from 'knex';
import type { HourRejections, ProofRejectionLog } from '../../application/ports/usage-series.js';
import type { Database } from './database.js';

/** Rows per upsert statement: well under SQLite's variable limit. */
const ROWS_PER_STATEMENT = 200;
const num = (v: number | string) => Number(v);

/** ProofRejectionLog on `proof_rejections_hourly`. */
export class KnexProofRejectionLog implements ProofRejectionLog {
  private readonly knex: Knex;

  constructor(db: Pick<Database, 'knex'>) {
    this.knex = db.knex;
  }

  async add(rows: readonly HourRejections[]): Promise<void> {
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
      const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
      await this.knex('proof_rejections_hourly')
        .insert(chunk.map((r) => ({ wallet: r.wallet, hour_ms: r.hourMs, rejected_count: r.count })))
        .onConflict(['wallet', 'hour_ms'])
        .merge({ rejected_count: this.knex.raw('proof_rejections_hourly.rejected_count + excluded.rejected_count') });
    }
  }

  async hours(wallet: string, fromMs: number, toMs: number): Promise<readonly HourRejections[]> {
    const rows: Array<{ hour_ms: number | string; rejected_count: number | string }> = await this.knex('proof_rejections_hourly')
      .select('hour_ms', 'rejected_count')
      .where('wallet', wallet)
      .andWhere('hour_ms', '>=', fromMs)
      .andWhere('hour_ms', '<', toMs)
      .orderBy('hour_ms');
    return rows.map((r) => ({ wallet, hourMs: num(r.hour_ms), count: num(r.rejected_count) }));
  }
}
