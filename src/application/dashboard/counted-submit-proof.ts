import * as E from 'fp-ts/lib/Either.js';
import type { Clock } from '../ports/clock.js';
import type { ProofChecker } from '../ports/proof-checker.js';
import type { ProofStore } from '../ports/proof-store.js';
import { SubmitProof, type SubmitFailure, type SubmitProofInput, type SubmitProofResult } from '../proofs/submit-proof.js';

/**
 * SubmitProof that also counts each refused submission for its wallet (the dashboard's
 * "invalid submissions" series). The count goes to an in-memory tally: nothing is written on
 * the request's path.
 */
export class CountedSubmitProof extends SubmitProof {
  constructor(
    checker: ProofChecker,
    store: ProofStore,
    private readonly clockForCounts: Clock,
    private readonly rejections: { record(wallet: string, atMs: number): void },
  ) {
    super(checker, store, clockForCounts);
  }

  override async execute(input: SubmitProofInput): Promise<E.Either<SubmitFailure, SubmitProofResult>> {
    const result = await super.execute(input);
    if (E.isLeft(result)) this.rejections.record(input.wallet, this.clockForCounts.nowMs());
    return result;
  }
}
