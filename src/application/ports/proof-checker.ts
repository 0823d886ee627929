import type * as E from 'fp-ts/lib/Either.js';
import type { ProofFailure } from '../../domain/protocol/failures.js';
import type { VerifiedProof } from '../../domain/protocol/verify-envelope.js';

/**
 * Checks 1–7 of docs/protocol.md on one parsed JSON value, somewhere: on the calling thread, or on
 * a worker thread so that the event loop serving requests stays free.
 */
export interface ProofChecker {
  /**
   * `json`, when given, is a JSON text that parses to exactly `raw` (the submitter's own): a
   * checker on another thread sends it as it is instead of serializing `raw` again.
   */
  check(raw: unknown, json?: string): Promise<E.Either<ProofFailure, VerifiedProof>>;
}
