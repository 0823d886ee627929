import type * as E from 'fp-ts/lib/Either.js';
import type { ProofFailure } from '../../domain/protocol/failures.js';
import type { VerifiedProof } from '../../domain/protocol/verify-envelope.js';

/**
 * Checks 1–7 of PROTOCOL.md on one parsed JSON value, somewhere: on the calling thread, or on
 * a worker thread so that the event loop serving requests stays free.
 */
export interface ProofChecker {
  check(raw: unknown): Promise<E.Either<ProofFailure, VerifiedProof>>;
}
