import * as E from 'fp-ts/lib/Either.js';
import type { ProofProtocol } from '../../application/proofs/proof-protocol.js';
import type { BatchVerifier } from '../../application/ports/batch-verifier.js';
import { toReport, type VerificationReport } from '../../application/proofs/verify-proof.js';
import type { ReceivedEnvelope } from '../../domain/protocol/acto-hashes.js';
import type { ProofFailure } from '../../domain/protocol/failures.js';
import type { PendingSignature, VerifiedProof } from '../../domain/protocol/verify-envelope.js';

/**
 * The failure of a value that could not even be read: a getter that throws, a Proxy, a value
 * that is not JSON. It is a shape failure like any other, so the rest of the batch goes on.
 */
export function unreadable(error: unknown): ProofFailure {
  const why = error instanceof Error ? error.message : String(error);
  return { _tag: 'MalformedEnvelope', path: 'envelope', problem: `could not be read (${why})` };
}

/** The report for a value that could not even be read (see `unreadable`). */
export function unreadableReport(error: unknown): VerificationReport {
  return toReport(E.left(unreadable(error)));
}

/** `protocol.verify` never throws on JSON; this also holds for values that are not JSON. */
export function verifySafely(protocol: ProofProtocol, raw: unknown, received?: ReceivedEnvelope): VerificationReport {
  try {
    return protocol.verify(raw, received);
  } catch (error) {
    return unreadableReport(error);
  }
}

/** Checks 1–6 (`protocol.prepare`), never throwing, as verifySafely does for all seven. */
export function prepareSafely(protocol: ProofProtocol, raw: unknown, received?: ReceivedEnvelope): E.Either<ProofFailure, PendingSignature> {
  try {
    return protocol.prepare(raw, received);
  } catch (error) {
    return E.left(unreadable(error));
  }
}

/**
 * What a worker sends back for each submission it checks: the proof id and creation time, or
 * the first failure. A submission needs no more.
 */
export type CheckOutcome =
  { readonly ok: true; readonly proofId: string; readonly createdAtMs: number } | { readonly ok: false; readonly failure: ProofFailure };

/** Checks one submission into its CheckOutcome; a check that throws is the envelope's failure, not the caller's. */
export function checkSafely(protocol: ProofProtocol, raw: unknown, received?: ReceivedEnvelope): CheckOutcome {
  let result: E.Either<ProofFailure, VerifiedProof>;
  try {
    result = protocol.check(raw, received);
  } catch (error) {
    result = E.left(unreadable(error));
  }
  return E.isRight(result) ? { ok: true, proofId: result.right.proofId, createdAtMs: result.right.createdAtMs } : { ok: false, failure: result.left };
}

/**
 * Verifies on the calling thread, one envelope after another. For small batches, where
 * handing envelopes to a worker costs more than verifying them, and for tests. It blocks the
 * event loop for the whole batch (about 0.2 ms per 2 KB proof), so large batches belong on
 * the worker pool.
 */
export class InlineBatchVerifier implements BatchVerifier {
  constructor(private readonly protocol: ProofProtocol) {}

  async verifyMany(envelopes: readonly unknown[], received?: (index: number) => ReceivedEnvelope): Promise<VerificationReport[]> {
    return envelopes.map((raw, i) => verifySafely(this.protocol, raw, received?.(i)));
  }
}
