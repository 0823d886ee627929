import type { ProofEnvelope } from '../../domain/protocol/envelope.js';

/**
 * Scores a verified proof once, as it is received: the score is kept with the proof and
 * summed into its wallet's statistics, so no statistics request scores (or parses) proofs.
 */
export interface ProofScorer {
  score(envelope: ProofEnvelope, atMs: number): number;
}
