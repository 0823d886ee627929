import type { Knex } from 'knex';
import type { ProofActivity, ProofActivityReader } from '../../application/ports/proof-activity.js';
import type { ProofEnvelope } from '../../domain/protocol/envelope.js';
import type { Database } from './database.js';
import { walletKeyOf } from './wallet-keys.js';

/**
 * Aggregates over one wallet's proofs. Every figure is a range over the (wallet_id,
 * created_at_ms, proof_id) index, read once: one index-only pass for the counts, one short
 * backwards range for the latest envelopes.
 */
export class KnexProofActivity implements ProofActivityReader {
  private readonly knex: Knex;

  constructor(db: Pick<Database, 'knex'>) {
    this.knex = db.knex;
  }

  async activity(wallet: string, sinceMs: readonly number[], untilMs: number): Promise<ProofActivity> {
    // A proof dated in the future (a device clock ahead) is in the total, in no window.
    const sums = sinceMs.map((_, i) => this.knex.raw(`sum(case when created_at_ms >= ? and created_at_ms <= ? then 1 else 0 end) as ??`, [sinceMs[i]!, untilMs, `since_${i}`]));
    const row = (await this.knex('proofs')
      .where('wallet_id', walletKeyOf(this.knex, wallet))
      .select(this.knex.raw('count(*) as total'), this.knex.raw('min(created_at_ms) as first_ms'), this.knex.raw('max(created_at_ms) as last_ms'), ...sums)
      .first()) as Record<string, number | string | null> | undefined;
    const num = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));
    return {
      total: num(row?.['total']) ?? 0,
      since: sinceMs.map((_, i) => num(row?.[`since_${i}`]) ?? 0),
      firstCreatedAtMs: num(row?.['first_ms']),
      lastCreatedAtMs: num(row?.['last_ms']),
    };
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
