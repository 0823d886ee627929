import { scoreProof } from '../../domain/scoring/score-proof.js';
import { DEFAULT_POLICY } from '../../domain/scoring/scoring-policy.js';
import type { ProofScorer } from '../ports/proof-scorer.js';

/** The default policy's score at the instant given: what the statistics average. */
export const defaultPolicyScorer: ProofScorer = {
  score: (envelope, atMs) => scoreProof(envelope, atMs, DEFAULT_POLICY).score,
};
