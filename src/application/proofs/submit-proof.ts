import * as E from 'fp-ts/lib/Either.js';
import { claimedIds, proofRejected } from '../../domain/events/announcements.js';
import type { NewEvent } from '../../domain/events/event.js';
import { robotRefusal, type RobotNotAllowed } from '../../domain/identity/key-grant.js';
import type { ProofFailure } from '../../domain/protocol/failures.js';
import { toProofRecord, unstorableProof, type ProofRecord, type UnstorableProof } from '../../domain/proof/proof-record.js';
import type { Clock } from '../ports/clock.js';
import type { ProofChecker } from '../ports/proof-checker.js';
import type { ProofScorer } from '../ports/proof-scorer.js';
import type { ProofStore } from '../ports/proof-store.js';
import type { SubmissionRefusals } from '../ports/usage-series.js';

export interface SubmitProofInput {
  readonly wallet: string;
  readonly envelope: unknown;
  /**
   * The JSON text `envelope` was parsed from, when the caller has it exactly (it parses to
   * exactly `envelope`): checked and stored as the submitter sent it, not serialized again.
   */
  readonly envelopeJson?: string;
  /**
   * The robots the caller may submit for (a bound API key's), or null / absent: any. A proof
   * for another robot, or for none, is refused before it is verified and never stored.
   */
  readonly robotIds?: readonly string[] | null;
}

export interface SubmitProofResult {
  readonly record: ProofRecord;
  /** False when the wallet already had this proof: the first stored copy is what is returned. */
  readonly stored: boolean;
}

/** Why a submission was not stored: it does not verify, or it verifies but cannot be stored. */
export type SubmitFailure = ProofFailure | UnstorableProof | RobotNotAllowed;

/** Where a refusal is announced (`proof.rejected`): an EventBuffer. */
export interface RejectionEvents {
  add(event: NewEvent): void;
}

/**
 * Verifies an envelope and stores it for the wallet; a proof that does not verify is never
 * stored. Each refusal is told to `refusals`, when given, for the wallet's "invalid
 * submissions" figures, and announced to `rejections`, when given. An accepted proof is
 * announced by the store, in the transaction that stores it.
 */
export class SubmitProof {
  constructor(
    private readonly checker: ProofChecker,
    private readonly store: ProofStore,
    private readonly clock: Clock,
    private readonly refusals?: SubmissionRefusals,
    private readonly scorer?: ProofScorer,
    private readonly rejections?: RejectionEvents,
  ) {}

  async execute(input: SubmitProofInput): Promise<E.Either<SubmitFailure, SubmitProofResult>> {
    const result = await this.submit(input);
    // A refused robot is a matter of the key's permissions, not of the proof: no refusal to count.
    if (E.isLeft(result) && result.left._tag !== 'RobotNotAllowed') {
      const now = this.clock.nowMs();
      this.refusals?.record(input.wallet, now);
      this.rejections?.add(proofRejected(input.wallet, result.left, claimedIds(input.envelope), now));
    }
    return result;
  }

  private async submit(input: SubmitProofInput): Promise<E.Either<SubmitFailure, SubmitProofResult>> {
    // A robot the envelope names is enough to refuse it unverified: a proof that verifies names
    // that robot. One that names none is judged after verification, so a malformed one is a 422.
    const claimedRobot = input.robotIds ? claimedIds(input.envelope).robotId : null;
    const claimed = claimedRobot === null ? null : robotRefusal(input.robotIds, claimedRobot);
    if (claimed) return E.left(claimed);
    const verified = await this.checker.check(input.envelope, input.envelopeJson);
    if (E.isLeft(verified)) return verified;
    const checked = input.envelopeJson === undefined ? verified.right : { ...verified.right, envelopeJson: input.envelopeJson };
    const received = toProofRecord(checked, input.wallet, this.clock.nowMs());
    const unstorable = unstorableProof(received);
    if (unstorable) return E.left(unstorable);
    const refused = robotRefusal(input.robotIds, received.robotId);
    if (refused) return E.left(refused);
    // Scored once, here: the score is stored with the proof and summed into the statistics.
    const record = this.scorer ? { ...received, score: this.scorer.score(received.envelope, received.receivedAtMs) } : received;
    const added = await this.store.add(record);
    return E.right({ record: added.record, stored: added.stored });
  }
}
