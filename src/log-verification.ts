/**
 * Offline verification of the registry's transparency log, for embedding: inclusion and
 * consistency proofs (RFC 9162, SHA-256) and signed checkpoints (C2SP signed-note with the
 * log's Ed25519 vkey). Nothing here fetches anything or loads a server or a database driver.
 */
import type * as E from 'fp-ts/lib/Either.js';
import { NodeEd25519 } from './adapters/crypto/node-ed25519.js';
import { NodeSha256 } from './adapters/crypto/node-sha256.js';
import { LogVerifier, type InclusionAnswerFailure, type InclusionAnswerJson } from './application/log/log-verifier.js';
import type { Checkpoint } from './domain/log/checkpoint.js';
import type { LogProofFailure, NoteFailure } from './domain/log/log-failures.js';
import type { OpenCheckpointOptions } from './domain/log/open-checkpoint.js';
import type { ConsistencyProof, InclusionProof } from './domain/log/verify-proofs.js';
import type { ReceivedEnvelope } from './domain/protocol/acto-hashes.js';
import {
  envelopeInBundle,
  parseWitnessPolicy,
  verifyBundle as verifyBundleWith,
  type BundleVerification,
  type EnvelopeVerdict,
  type WitnessPolicy,
} from './domain/log/verify-bundle.js';

/** The verifier the functions below use: SHA-256 and Ed25519 from node:crypto. */
export const logVerifier = new LogVerifier(new NodeSha256(), new NodeEd25519());

/** Does the proof show the leaf (by its RFC 9162 leaf hash) in the tree with this root? */
export function verifyInclusionProof(proof: InclusionProof, rootHash: Uint8Array): E.Either<LogProofFailure, void> {
  return logVerifier.verifyInclusion(proof, rootHash);
}

/** Does the proof show the tree of `second` leaves extending the tree of `first`? */
export function verifyConsistencyProof(proof: ConsistencyProof, firstRoot: Uint8Array, secondRoot: Uint8Array): E.Either<LogProofFailure, void> {
  return logVerifier.verifyConsistency(proof, firstRoot, secondRoot);
}

/** Verifies a signed checkpoint with the log's vkey (GET /v1/log/key) and reads it. */
export function openCheckpoint(note: string, vkey: string, options: OpenCheckpointOptions = {}): E.Either<NoteFailure, Checkpoint> {
  return logVerifier.openCheckpoint(note, vkey, options);
}

/** Checks a GET /v1/log/inclusion answer end to end; with `leaf` (payload_hash bytes), that it is that leaf's. */
export function verifyInclusionAnswer(answer: InclusionAnswerJson, vkey: string, leaf?: Uint8Array): E.Either<InclusionAnswerFailure, Checkpoint> {
  return logVerifier.verifyInclusionAnswer(answer, vkey, leaf);
}

/** SHA-256(0x00 ‖ data): the leaf hash of a proof in the log, from its payload_hash bytes. */
export function logLeafHash(data: Uint8Array): Uint8Array {
  return logVerifier.leafHash(data);
}

/** What verifyBundle needs of the proof protocol: a ProofProtocol (`await createProofProtocol()`) is one. */
export interface BundleEnvelopeProtocol {
  readonly limits: { readonly maxDepth: number };
  verify(raw: unknown, received?: ReceivedEnvelope): EnvelopeVerdict;
}

export interface VerifyBundleOptions {
  /** The log's verifier key, GET /v1/log/key's `vkey`. */
  readonly logKey: string;
  /** A witness policy (its file's text, `witness <name> <vkey> <url>` and `quorum <n>` lines, or parsed): a quorum of its witnesses must have cosigned. */
  readonly witnessPolicy?: string | WitnessPolicy;
  /** The protocol that checks the envelope. */
  readonly protocol: BundleEnvelopeProtocol;
}

/**
 * Verifies a proof bundle (GET /v1/proofs/{proof_id}/bundle) offline, from its file's exact
 * text: each check named in the result (docs/log.md, "Proof bundles"). Throws only on a
 * witness policy text that does not parse.
 */
export function verifyBundle(text: string, options: VerifyBundleOptions): BundleVerification {
  const sha = new NodeSha256();
  let policy: WitnessPolicy | undefined;
  if (typeof options.witnessPolicy === 'string') {
    const parsed = parseWitnessPolicy(sha, options.witnessPolicy);
    if (parsed._tag === 'Left') throw new Error(`witness policy: ${parsed.left}`);
    policy = parsed.right;
  } else {
    policy = options.witnessPolicy;
  }
  const { protocol } = options;
  return verifyBundleWith(
    text,
    { logKey: options.logKey, ...(policy ? { witnessPolicy: policy } : {}) },
    {
      sha,
      ed25519: new NodeEd25519(),
      checkEnvelope: (envelope, envelopeText) => protocol.verify(envelope, envelopeInBundle(envelopeText, protocol.limits.maxDepth)),
    },
  );
}

export { LogVerifier, type InclusionAnswerFailure, type InclusionAnswerJson } from './application/log/log-verifier.js';
export { describeLogProofFailure, describeNoteFailure, type LogProofFailure, type NoteFailure } from './domain/log/log-failures.js';
export type { Checkpoint } from './domain/log/checkpoint.js';
export type { OpenCheckpointOptions } from './domain/log/open-checkpoint.js';
export type { ConsistencyProof, InclusionProof } from './domain/log/verify-proofs.js';
export type { Sha256 } from './domain/log/sha256.js';
export { BUNDLE_FORMAT, proofBundle, serializeBundle, formatTlogProof, parseTlogProof, type ProofBundle, type TlogProof } from './domain/log/proof-bundle.js';
export {
  BUNDLE_CHECKS,
  parseWitnessPolicy,
  type BundleCheck,
  type BundleCheckName,
  type BundleCheckStatus,
  type BundleVerification,
  type EnvelopeVerdict,
  type PolicyWitness,
  type WitnessPolicy,
} from './domain/log/verify-bundle.js';
