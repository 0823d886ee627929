import type { Knex } from 'knex';
import type { ProofActivity, ProofActivityReader } from '../../application/ports/proof-activity.js';
import type { ProofEnvelope } from '../../domain/protocol/envelope.js';
import type { Database } from './database.js';
import { HOUR_MS } from './wallet-stats-sql.js';
import { walletKeyOf } from './wallet-keys.js';

/**
 * Aggregates over one wallet's proofs, none of which reads the wallet's proofs one by one: the
 * total is the running count the writers keep (wallet_stats, migrations/007); the first and
 * last dates are the two ends of the (wallet_id, created_at_ms, proof_id) index; a window's
 * count adds the kept counts of the whole hours inside it (wallet_proof_hours, migrations/011)
 * to the proofs of its two partial hours, two short ranges of that index.
 */
export class KnexProofActivity implements ProofActivityReader {
  private readonly knex: Knex;

  constructor(db: Pick<Database, 'knex'>) {
    this.knex = db.knex;
  }

  async activity(wallet: string, sinceMs: readonly number[], untilMs: number): Promise<ProofActivity> {
    const end = (order: 'asc' | 'desc') =>
      this.knex('proofs')
        .select('created_at_ms')
        .where('wallet_id', walletKeyOf(this.knex, wallet))
        .orderBy([
          { column: 'created_at_ms', order },
          { column: 'proof_id', order },
        ])
        .first() as Promise<{ created_at_ms: number | string } | undefined>;
    const [kept, first, last, ...since] = await Promise.all([
      this.knex('wallet_stats').select('proofs_submitted').where('wallet', wallet).first() as Promise<{ proofs_submitted: number | string } | undefined>,
      end('asc'),
      end('desc'),
      // A proof dated in the future (a device clock ahead) is in the total, in no window.
      ...sinceMs.map((from) => this.windowCount(wallet, from, untilMs)),
    ]);
    return {
      total: Number(kept?.proofs_submitted ?? 0),
      since,
      firstCreatedAtMs: first ? Number(first.created_at_ms) : null,
      lastCreatedAtMs: last ? Number(last.created_at_ms) : null,
    };
  }

  /** Proofs created in [fromMs, untilMs], both ends included. */
  private async windowCount(wallet: string, fromMs: number, untilMs: number): Promise<number> {
    if (untilMs < fromMs) return 0;
    // The whole hours inside the window, then what the partial hours at its two ends hold.
    const firstHour = Math.ceil(fromMs / HOUR_MS) * HOUR_MS;
    const lastHour = Math.floor(untilMs / HOUR_MS) * HOUR_MS;
    if (firstHour >= lastHour) return this.rangeCount(wallet, fromMs, untilMs);
    const [hours, head, tail] = await Promise.all([
      this.knex('wallet_proof_hours')
        .sum({ n: 'proof_count' })
        .where('wallet', wallet)
        .where('hour_ms', '>=', firstHour)
        .where('hour_ms', '<', lastHour)
        .first() as Promise<{ n: number | string | null } | undefined>,
      this.rangeCount(wallet, fromMs, firstHour - 1),
      this.rangeCount(wallet, lastHour, untilMs),
    ]);
    return Number(hours?.n ?? 0) + head + tail;
  }

  /** Proofs created in [fromMs, untilMs], counted over that range of the wallet's time index. */
  private async rangeCount(wallet: string, fromMs: number, untilMs: number): Promise<number> {
    if (untilMs < fromMs) return 0;
    const row = (await this.knex('proofs')
      .count({ n: '*' })
      .where('wallet_id', walletKeyOf(this.knex, wallet))
      .whereBetween('created_at_ms', [fromMs, untilMs])
      .first()) as { n: number | string } | undefined;
    return Number(row?.n ?? 0);
  }

  async recentScores(wallet: string, limit: number): Promise<readonly number[]> {
    // The kept scores only: no envelope is read, parsed or scored.
    const rows: Array<{ score: number | null }> = await this.knex('proofs')
      .select('score')
      .where('wallet_id', walletKeyOf(this.knex, wallet))
      .orderBy([
        { column: 'created_at_ms', order: 'desc' },
        { column: 'proof_id', order: 'desc' },
      ])
      .limit(limit);
    return rows.flatMap((r) => (r.score === null ? [] : [Number(r.score)]));
  }

  async recentEnvelopes(wallet: string, limit: number): Promise<readonly ProofEnvelope[]> {
    const rows: Array<{ envelope: string }> = await this.knex('proofs')
      .select('envelope')
      .where('wallet_id', walletKeyOf(this.knex, wallet))
      .orderBy([
        { column: 'created_at_ms', order: 'desc' },
        { column: 'proof_id', order: 'desc' },
      ])
      .limit(limit);
    return rows.map((r) => JSON.parse(r.envelope) as ProofEnvelope);
  }
}
