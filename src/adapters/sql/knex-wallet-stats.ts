import type { Knex } from 'knex';
import type { NamedCount, WalletActivity, WalletStatsStore } from '../../application/ports/wallet-stats.js';
import { NO_TOTALS } from '../../application/ports/wallet-stats.js';
import type { Database } from './database.js';
import { int } from './fleet-rows.js';
import { DAY_MS } from './wallet-stats-sql.js';

interface StatsRow {
  proofs_submitted: number | string;
  scored_proofs: number | string;
  score_sum: number | string;
  verifications_ok: number | string;
  verifications_failed: number | string;
  first_activity_ms: number | string | null;
  last_activity_ms: number | string | null;
}

/**
 * WalletStatsStore on SQLite or PostgreSQL (migrations/007). The proof writers move the proof
 * figures (wallet-stats-sql.ts); this records verification calls and reads: a handful of rows
 * per request, whatever the number or size of the wallet's proofs.
 */
export class KnexWalletStats implements WalletStatsStore {
  private readonly knex: Knex;
  private readonly reader: Knex;
  private readonly postgres: boolean;

  constructor(db: Pick<Database, 'knex' | 'dialect'> & Partial<Pick<Database, 'reader'>>) {
    this.knex = db.knex;
    this.reader = db.reader ?? db.knex;
    this.postgres = db.dialect === 'postgres';
  }

  async recordVerifications(wallet: string, atMs: number, successful: number, failed: number): Promise<void> {
    if (successful + failed === 0) return;
    const [least, greatest] = this.postgres ? ['least', 'greatest'] : ['min', 'max'];
    const dayMs = atMs - (atMs % DAY_MS);
    await this.knex.transaction(async (trx) => {
      await trx.raw(
        `insert into wallet_stats (wallet, verifications_ok, verifications_failed, first_activity_ms, last_activity_ms) values (?, ?, ?, ?, ?)
         on conflict (wallet) do update set
           verifications_ok = wallet_stats.verifications_ok + excluded.verifications_ok,
           verifications_failed = wallet_stats.verifications_failed + excluded.verifications_failed,
           first_activity_ms = coalesce(${least}(wallet_stats.first_activity_ms, excluded.first_activity_ms), excluded.first_activity_ms),
           last_activity_ms = coalesce(${greatest}(wallet_stats.last_activity_ms, excluded.last_activity_ms), excluded.last_activity_ms)`,
        [wallet, successful, failed, atMs, atMs],
      );
      await trx.raw(
        `insert into wallet_activity_daily (wallet, day_ms, verification_count) values (?, ?, ?)
         on conflict (wallet, day_ms) do update set verification_count = wallet_activity_daily.verification_count + excluded.verification_count`,
        [wallet, dayMs, successful + failed],
      );
    });
  }

  async countTasks(wallet: string): Promise<number> {
    // One row per task of the wallet, kept by the proof writers: counted on its index.
    const [row] = (await this.reader('wallet_task_counts').where('wallet', wallet).count({ n: '*' })) as Array<{ n: number | string }>;
    return int(row?.n ?? 0, 'count');
  }

  async read(wallet: string, q: { top: number; fromDayMs: number; toDayMs: number }): Promise<WalletActivity> {
    const top = async (table: string, column: string): Promise<NamedCount[]> => {
      // Served by the (wallet, proof_count, name) index, read backwards.
      const rows: Array<{ name: string; proof_count: number | string }> = await this.reader(table)
        .select(`${column} as name`, 'proof_count')
        .where('wallet', wallet)
        .orderBy([
          { column: 'proof_count', order: 'desc' },
          { column, order: 'asc' },
        ])
        .limit(q.top);
      return rows.map((r) => ({ name: r.name, count: int(r.proof_count, 'proof_count') }));
    };
    const [row, topRobots, topTasks, days] = await Promise.all([
      this.reader<StatsRow>('wallet_stats').where('wallet', wallet).first(),
      top('wallet_robot_counts', 'robot_id'),
      top('wallet_task_counts', 'task_id'),
      this.reader('wallet_activity_daily')
        .select('day_ms', 'proof_count', 'verification_count')
        .where('wallet', wallet)
        .whereBetween('day_ms', [q.fromDayMs, q.toDayMs])
        .orderBy('day_ms') as Promise<Array<{ day_ms: number | string; proof_count: number | string; verification_count: number | string }>>,
    ]);
    const orNull = (v: number | string | null, c: string) => (v === null ? null : int(v, c));
    return {
      totals: row
        ? {
            proofsSubmitted: int(row.proofs_submitted, 'proofs_submitted'),
            scoredProofs: int(row.scored_proofs, 'scored_proofs'),
            scoreSum: Number(row.score_sum),
            verificationsSuccessful: int(row.verifications_ok, 'verifications_ok'),
            verificationsFailed: int(row.verifications_failed, 'verifications_failed'),
            firstActivityMs: orNull(row.first_activity_ms, 'first_activity_ms'),
            lastActivityMs: orNull(row.last_activity_ms, 'last_activity_ms'),
          }
        : NO_TOTALS,
      topRobots,
      topTasks,
      days: days.map((d) => ({
        dayMs: int(d.day_ms, 'day_ms'),
        proofs: int(d.proof_count, 'proof_count'),
        verifications: int(d.verification_count, 'verification_count'),
      })),
    };
  }
}
