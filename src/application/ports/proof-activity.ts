import type { ProofEnvelope } from '../../domain/protocol/envelope.js';

export interface ProofActivity {
  readonly total: number;
  /** Proofs whose created_at is at or after each instant asked for and not after `untilMs`, in the same order. */
  readonly since: readonly number[];
  readonly firstCreatedAtMs: number | null;
  readonly lastCreatedAtMs: number | null;
}

/** Aggregate reads over one wallet's proofs, for its statistics. */
export interface ProofActivityReader {
  /** Counts; the windows run from each of `sinceMs` to `untilMs` (now), both ends included. */
  activity(wallet: string, sinceMs: readonly number[], untilMs: number): Promise<ProofActivity>;
  /** The scores kept with the wallet's `limit` latest proofs by created_at (ties: proof id), newest first; unscored ones left out. */
  recentScores(wallet: string, limit: number): Promise<readonly number[]>;
  /** The envelopes of the wallet's `limit` latest proofs by created_at (ties: proof id), newest first. */
  recentEnvelopes(wallet: string, limit: number): Promise<readonly ProofEnvelope[]>;
}
