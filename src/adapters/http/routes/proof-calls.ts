import * as E from 'fp-ts/lib/Either.js';
import type { SubmitProof, SubmitProofResult } from '../../../application/proofs/submit-proof.js';
import type { VerifyBatch } from '../../../application/proofs/verify-batch.js';
import type { VerifyEnvelope } from '../../../application/proofs/verify-envelope.js';
import type { HttpMetrics } from '../http-metrics.js';
import { receivedBody, submittedEnvelopeText } from '../received-body.js';
import { proofProblem } from './proof-problems.js';

/**
 * The proof calls both personalities make (/v1 and /acto answer them in their own shapes):
 * each use case run on the envelope text as sent and counted in the metrics, so a proof
 * submitted or verified through either reads the same in /metrics.
 */
export interface ProofCallDeps {
  readonly submit: SubmitProof;
  readonly verify: VerifyEnvelope;
  readonly verifyBatch: VerifyBatch;
  readonly metrics: HttpMetrics;
}

/** The request as a handler has it: the decoded envelope(s), the raw text, the parsed body. */
interface Sent<B> {
  readonly body: B;
  readonly wallet: string | undefined;
  readonly rawBody: string | undefined;
  readonly maxDepth: number;
}

/** Submits `body.envelope`; a refusal is counted and thrown as its problem. */
export async function submitCounted(
  d: ProofCallDeps,
  sent: Sent<{ envelope: unknown }> & { readonly wallet: string; readonly parsed: unknown; readonly robotIds: readonly string[] | null },
): Promise<SubmitProofResult> {
  // The envelope's own text: the event loop need not serialize it again for the verify
  // worker, the ACTO form is judged on the numbers as sent, and it is stored as it was sent.
  const envelopeJson = submittedEnvelopeText(sent.rawBody, sent.parsed, sent.maxDepth);
  const result = await d.submit.execute({
    wallet: sent.wallet,
    envelope: sent.body.envelope,
    robotIds: sent.robotIds,
    ...(envelopeJson !== undefined ? { envelopeJson } : {}),
  });
  if (E.isLeft(result)) {
    d.metrics.proofsSubmitted.inc({ outcome: 'rejected', reason: result.left._tag });
    throw proofProblem(result.left);
  }
  d.metrics.proofsSubmitted.inc({ outcome: result.right.stored ? 'stored' : 'duplicate', reason: '' });
  return result.right;
}

/** Verifies `body.envelope` without storing it; counted in the caller's statistics, valid or not. */
export async function verifyCounted(d: ProofCallDeps, sent: Sent<{ envelope: unknown }>) {
  const report = await d.verify.execute(sent.body.envelope, sent.wallet, receivedBody(sent.rawBody, sent.maxDepth).envelope());
  d.metrics.envelopesVerified.inc({ valid: String(report.valid) });
  return report;
}

/** Verifies `body.envelopes`, each counted as valid or not. */
export async function verifyBatchCounted(d: ProofCallDeps, sent: Sent<{ envelopes: readonly unknown[] }>) {
  const result = await d.verifyBatch.execute(sent.body.envelopes, sent.wallet, receivedBody(sent.rawBody, sent.maxDepth).envelopes());
  d.metrics.envelopesVerified.inc({ valid: 'true' }, result.valid_count);
  d.metrics.envelopesVerified.inc({ valid: 'false' }, result.invalid_count);
  return result;
}
