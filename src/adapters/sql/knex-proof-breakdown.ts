import type { Knex } from 'knex';
import type { BreakdownKey, ProofBreakdownReader, ProofShare } from '../../application/ports/proof-breakdown.js';
import type { Database } from './database.js';
import { walletKeyOf } from './wallet-keys.js';

const COLUMN: Record<BreakdownKey, string> = { robot: 'robot_id', task: 'task_id' };

/**
 * Proofs of a window by robot or task, grouped in SQL over one range of the (wallet_id,
 * created_at_ms) index: true counts for any window, where the kept per-robot and per-task
 * totals (wallet_robot_counts, wallet_task_counts) hold all time only. Both columns order
 * bytewise on both databases (PostgreSQL gives them the "C" collation, migrations/010), so
 * ties fall the same way.
 */
export class KnexProofBreakdown implements ProofBreakdownReader {
  private readonly knex: Knex;

  constructor(db: Pick<Database, 'knex'>) {
    this.knex = db.knex;
  }

  async top(wallet: string, by: BreakdownKey, fromMs: number, toMs: number, limit: number): Promise<readonly ProofShare[]> {
    const column = COLUMN[by];
    const rows: Array<{ id: string; n: number | string }> = await this.knex('proofs')
      .select({ id: column, n: this.knex.raw('count(*)') })
      .where('wallet_id', walletKeyOf(this.knex, wallet))
      .andWhere('created_at_ms', '>=', fromMs)
      .andWhere('created_at_ms', '<', toMs)
      .whereNotNull(column)
      .groupBy(column)
      .orderByRaw('count(*) desc')
      .orderBy(column, 'asc')
      .limit(limit);
    return rows.map((r) => ({ id: r.id, proofs: Number(r.n) }));
  }
}
