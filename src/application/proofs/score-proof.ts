import * as E from 'fp-ts/lib/Either.js';
import type { ReceivedEnvelope } from '../../domain/protocol/acto-hashes.js';
import type { ProofEnvelope } from '../../domain/protocol/envelope.js';
import type { ProofFailure } from '../../domain/protocol/failures.js';
import type { ProofScore } from '../../domain/scoring/proof-score.js';
import { scoreProof } from '../../domain/scoring/score-proof.js';
import type { ProofProtocol } from './proof-protocol.js';
import type { Clock } from '../ports/clock.js';
import type { ProofStore } from '../ports/proof-store.js';
import type { ProofNotFound } from './get-proof.js';

export type ScoreInput =
  | { readonly wallet: string; readonly proofId: string }
  | {
      readonly wallet: string;
      readonly envelope: unknown;
      /** The same envelope as received, numbers' text kept: an envelope hashed in the ACTO form is judged exactly. */
      readonly received?: ReceivedEnvelope;
    };

export type ScoreResult = ProofScore & { readonly proof_id: string };

/**
 * Scores a stored proof of the wallet, or an envelope sent inline (verified first: an
 * unverifiable envelope has no meaningful score).
 */
export class ScoreProof {
  constructor(
    private readonly protocol: ProofProtocol,
    private readonly store: ProofStore,
    private readonly clock: Clock,
  ) {}

  async execute(input: ScoreInput): Promise<E.Either<ProofFailure | ProofNotFound, ScoreResult>> {
    let envelope: ProofEnvelope;
    let proofId: string;
    if ('proofId' in input) {
      const found = /^[0-9a-f]{64}$/.test(input.proofId) ? await this.store.get(input.wallet, input.proofId) : null;
      if (!found) return E.left({ _tag: 'ProofNotFound', proofId: input.proofId });
      envelope = found.envelope;
      proofId = found.proofId;
    } else {
      const verified = this.protocol.check(input.envelope, input.received);
      if (E.isLeft(verified)) return verified;
      envelope = verified.right.envelope;
      proofId = verified.right.proofId;
    }
    return E.right({ proof_id: proofId, ...scoreProof(envelope, this.clock.nowMs()) });
  }
}
