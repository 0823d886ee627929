import * as E from 'fp-ts/lib/Either.js';
import type { Checkpoint } from '../../domain/log/checkpoint.js';
import type { LogProofFailure, NoteFailure } from '../../domain/log/log-failures.js';
import { leafHash } from '../../domain/log/merkle.js';
import { openCheckpoint, type OpenCheckpointOptions } from '../../domain/log/open-checkpoint.js';
import { equalBytes, type Sha256 } from '../../domain/log/sha256.js';
import { parseVerifierKey, type VerifierKey } from '../../domain/log/verifier-key.js';
import { verifyConsistency, verifyInclusion, type ConsistencyProof, type InclusionProof } from '../../domain/log/verify-proofs.js';
import type { SignatureVerifier } from '../../domain/protocol/crypto.js';
import { hexToBytes } from '../../domain/protocol/encoding.js';

/** The JSON answer of GET /v1/log/inclusion/{proof_id} (latest checkpoint form). */
export interface InclusionAnswerJson {
  readonly log_index: number;
  readonly tree_size: number;
  readonly leaf_hash: string;
  readonly hashes: readonly string[];
  readonly checkpoint: string;
}

export type InclusionAnswerFailure =
  | NoteFailure
  | LogProofFailure
  | { readonly _tag: 'MalformedAnswer'; readonly problem: string }
  /** The proof is for another tree size than the checkpoint it came with. */
  | { readonly _tag: 'CheckpointSizeMismatch'; readonly treeSize: number; readonly checkpointSize: number }
  /** The proof is for another leaf than the one asked about. */
  | { readonly _tag: 'LeafMismatch' };

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * Everything a client needs to check the log without trusting the registry: proofs,
 * checkpoints, and the inclusion answer as the API gives it. Offline: nothing is fetched.
 */
export class LogVerifier {
  constructor(
    private readonly sha: Sha256,
    private readonly ed25519: SignatureVerifier,
  ) {}

  /** RFC 9162 leaf hash of the leaf data (for this registry: the 32 bytes of payload_hash). */
  leafHash(data: Uint8Array): Uint8Array {
    return leafHash(this.sha, data);
  }

  verifyInclusion(proof: InclusionProof, rootHash: Uint8Array): E.Either<LogProofFailure, void> {
    return verifyInclusion(this.sha, proof, rootHash);
  }

  verifyConsistency(proof: ConsistencyProof, firstRoot: Uint8Array, secondRoot: Uint8Array): E.Either<LogProofFailure, void> {
    return verifyConsistency(this.sha, proof, firstRoot, secondRoot);
  }

  /** Opens a signed checkpoint with the log's vkey; the origin must be the key name unless told otherwise. */
  openCheckpoint(note: string, vkey: string | VerifierKey, options: OpenCheckpointOptions = {}): E.Either<NoteFailure, Checkpoint> {
    const key = typeof vkey === 'string' ? parseVerifierKey(this.sha, vkey) : E.right(vkey);
    return E.isLeft(key) ? key : openCheckpoint(this.ed25519, note, key.right, options);
  }

  /**
   * Checks an inclusion answer end to end: its checkpoint is signed by the log's key, the
   * proof is for that checkpoint's size, and leads from the leaf to its root. With `leaf`
   * (the payload_hash bytes of the proof one holds), also that the answer is about that leaf.
   */
  verifyInclusionAnswer(answer: InclusionAnswerJson, vkey: string | VerifierKey, leaf?: Uint8Array): E.Either<InclusionAnswerFailure, Checkpoint> {
    const malformed = answerProblem(answer);
    if (malformed) return E.left({ _tag: 'MalformedAnswer', problem: malformed });
    const checkpoint = this.openCheckpoint(answer.checkpoint, vkey);
    if (E.isLeft(checkpoint)) return checkpoint;
    const { size, rootHash } = checkpoint.right;
    if (answer.tree_size !== size) return E.left({ _tag: 'CheckpointSizeMismatch', treeSize: answer.tree_size, checkpointSize: size });
    const claimedLeafHash = hexToBytes(answer.leaf_hash)!;
    if (leaf && !equalBytes(this.leafHash(leaf), claimedLeafHash)) return E.left({ _tag: 'LeafMismatch' });
    const proof = { leafIndex: answer.log_index, treeSize: size, leafHash: claimedLeafHash, hashes: answer.hashes.map((h) => hexToBytes(h)!) };
    const verified = this.verifyInclusion(proof, rootHash);
    return E.isLeft(verified) ? verified : checkpoint;
  }
}

function answerProblem(a: InclusionAnswerJson): string | null {
  if (typeof a !== 'object' || a === null) return 'not an object';
  if (!Number.isSafeInteger(a.log_index) || a.log_index < 0) return 'log_index is not a non-negative integer';
  if (!Number.isSafeInteger(a.tree_size) || a.tree_size < 1) return 'tree_size is not a positive integer';
  if (typeof a.leaf_hash !== 'string' || !HEX64.test(a.leaf_hash)) return 'leaf_hash is not 64 lowercase hex digits';
  if (!Array.isArray(a.hashes) || !a.hashes.every((h) => typeof h === 'string' && HEX64.test(h))) return 'hashes is not a list of 64-hex-digit hashes';
  if (typeof a.checkpoint !== 'string') return 'checkpoint is not the text of a signed note';
  return null;
}
