import type { ReceivedEnvelope } from '../../domain/protocol/acto-hashes.js';
import type { VerificationReport } from '../proofs/verify-proof.js';

/**
 * Verifies many envelopes. Results come back in input order; one bad envelope never fails the
 * batch (it gets its own invalid report). Adapters may spread the work over worker threads.
 */
export interface BatchVerifier {
  /**
   * `received`, when given, gives each envelope as received (its numbers' text kept), so that
   * one hashed in the ACTO form is judged exactly; it is read only for an envelope whose
   * hashes do not match in the JCS form.
   */
  verifyMany(envelopes: readonly unknown[], received?: (index: number) => ReceivedEnvelope): Promise<VerificationReport[]>;
}
