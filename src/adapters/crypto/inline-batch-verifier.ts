import * as E from 'fp-ts/lib/Either.js';
import type { ProofProtocol } from '../../application/proof-protocol.js';
import type { BatchVerifier } from '../../application/ports/batch-verifier.js';
import { toReport, type VerificationReport } from '../../application/verify-proof.js';
import type { ProofFailure } from '../../domain/protocol/failures.js';
import type { VerifiedProof } from '../../domain/protocol/verify-envelope.js';
import type { CheckOutcome } from '../workers/worker-messages.js';

/**
 * The report for a value that could not even be read: a getter that throws, a Proxy, a value
 * that is not JSON. It is a shape failure like any other, so the rest of the batch goes on.
 */
export function unreadableReport(error: unknown): VerificationReport {
  const why = error instanceof Error ? error.message : String(error);
  return toReport(E.left({ _tag: 'MalformedEnvelope', path: 'envelope', problem: `could not be read (${why})` }));
}

/** `protocol.verify` never throws on JSON; this also holds for values that are not JSON. */
export function verifySafely(protocol: ProofProtocol, raw: unknown): VerificationReport {
  try {
    return protocol.verify(raw);
  } catch (error) {
    return unreadableReport(error);
  }
}

/** The check outcome a worker sends back for a submission (see worker-messages.ts). */
export function checkSafely(protocol: ProofProtocol, raw: unknown): CheckOutcome {
  let result: E.Either<ProofFailure, VerifiedProof>;
  try {
    result = protocol.check(raw);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    result = E.left({ _tag: 'MalformedEnvelope', path: 'envelope', problem: `could not be read (${why})` });
  }
  return E.isRight(result)
    ? { ok: true, proofId: result.right.proofId, createdAtMs: result.right.createdAtMs }
    : { ok: false, failure: result.left };
}

/** The report of a check outcome: what `protocol.verify` returns for the same envelope. */
export function reportOf(outcome: CheckOutcome): VerificationReport {
  return toReport(outcome.ok ? E.right({ proofId: outcome.proofId }) : E.left(outcome.failure));
}

/**
 * Verifies on the calling thread, one envelope after another. For small batches, where
 * handing envelopes to a worker costs more than verifying them, and for tests. It blocks the
 * event loop for the whole batch (about 0.2 ms per 2 KB proof), so large batches belong on
 * the worker pool.
 */
export class InlineBatchVerifier implements BatchVerifier {
  constructor(private readonly protocol: ProofProtocol) {}

  async verifyMany(envelopes: readonly unknown[]): Promise<VerificationReport[]> {
    return envelopes.map((raw) => verifySafely(this.protocol, raw));
  }
}
