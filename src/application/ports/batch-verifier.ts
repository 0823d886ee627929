import type { VerificationReport } from '../verify-proof.js';

/**
 * Verifies many envelopes. Results come back in input order; one bad envelope never fails the
 * batch (it gets its own invalid report). Adapters may spread the work over worker threads.
 */
export interface BatchVerifier {
  verifyMany(envelopes: readonly unknown[]): Promise<VerificationReport[]>;
}
