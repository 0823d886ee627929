import { scoreUnder } from '../../domain/scoring/score-proof.js';
import { DEFAULT_POLICY } from '../../domain/scoring/scoring-policy.js';
import type { ProofScorer } from '../ports/proof-scorer.js';

/**
 * The default policy's score at the instant given: what the statistics average. Only the
 * number is kept, so the reasons `scoreProof` writes for GET …/score are not written here.
 */
export const defaultPolicyScorer: ProofScorer = { score: scoreUnder(DEFAULT_POLICY) };
