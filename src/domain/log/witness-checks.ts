import * as E from 'fp-ts/lib/Either.js';
import type { SignatureVerifier } from '../protocol/crypto.js';
import { parseAddCheckpointRequest } from './add-checkpoint-request.js';
import { parseCheckpoint, type Checkpoint } from './checkpoint.js';
import { describeLogProofFailure } from './log-failures.js';
import { emptyRoot } from './merkle.js';
import { equalBytes, type Sha256 } from './sha256.js';
import { openSignedNote, parseSignedNote, type NoteSignature } from './signed-note.js';
import type { VerifierKey } from './verifier-key.js';
import { verifyConsistency } from './verify-proofs.js';

/**
 * Why a witness does not cosign, one per status of c2sp.org/tlog-witness add-checkpoint:
 * 400 `MalformedRequest` and `OldSizeBeyondCheckpoint`, 404 `UnknownLog`, 403
 * `LogSignatureInvalid`, 409 `SizeConflict` (with the witness's size), 422 `Inconsistent`.
 */
export type WitnessFailure =
  | { readonly _tag: 'MalformedRequest'; readonly problem: string }
  | { readonly _tag: 'UnknownLog'; readonly origin: string }
  | { readonly _tag: 'LogSignatureInvalid'; readonly origin: string; readonly problem: string }
  | { readonly _tag: 'OldSizeBeyondCheckpoint'; readonly oldSize: number; readonly checkpointSize: number }
  | { readonly _tag: 'SizeConflict'; readonly size: number }
  | { readonly _tag: 'Inconsistent'; readonly problem: string };

/** The logs a witness trusts: each origin with its keys (a vkey's name is its log's origin; several keys may share one). */
export function logsByOrigin(keys: readonly VerifierKey[]): ReadonlyMap<string, readonly VerifierKey[]> {
  const logs = new Map<string, VerifierKey[]>();
  for (const key of keys) logs.set(key.name, [...(logs.get(key.name) ?? []), key]);
  return logs;
}

/** An add-checkpoint request whose checkpoint a trusted log key signed. */
export interface SignedAddCheckpoint {
  readonly oldSize: number;
  readonly proof: readonly Uint8Array[];
  readonly checkpoint: Checkpoint;
  /** The checkpoint's note text (what a cosignature signs). */
  readonly text: string;
  /** The note's signature lines by the log's trusted keys (all verified); others are dropped. */
  readonly logSignatures: readonly NoteSignature[];
}

/**
 * The checks of add-checkpoint that need no state, in the spec's order: the body's shape
 * (400), the origin (404: the first line only picks the keys, nothing else is read before a
 * signature verifies), the log's signature (403: a signature line of a trusted key must
 * verify, and one must), then the checkpoint itself (400) and old size ≤ its size (400).
 */
export function openAddCheckpoint(
  verifier: SignatureVerifier,
  logs: ReadonlyMap<string, readonly VerifierKey[]>,
  body: string,
): E.Either<WitnessFailure, SignedAddCheckpoint> {
  const request = parseAddCheckpointRequest(body);
  if (E.isLeft(request)) return request;
  const { oldSize, proof, note } = request.right;
  const parsed = parseSignedNote(note);
  if (E.isLeft(parsed)) return E.left({ _tag: 'MalformedRequest', problem: parsed.left._tag === 'MalformedNote' ? parsed.left.problem : parsed.left._tag });
  const text = parsed.right.text;
  const origin = text.slice(0, text.indexOf('\n'));
  const keys = logs.get(origin);
  if (keys === undefined) return E.left({ _tag: 'UnknownLog', origin });
  let verified = false;
  for (const key of keys) {
    const opened = openSignedNote(verifier, note, key);
    if (E.isRight(opened)) verified = true;
    else if (opened.left._tag !== 'NoSignatureByKey') {
      return E.left({ _tag: 'LogSignatureInvalid', origin, problem: `the signature by ${key.name}+${key.keyId} does not verify` });
    }
  }
  if (!verified) return E.left({ _tag: 'LogSignatureInvalid', origin, problem: 'no signature by a key this witness trusts for the log' });
  const checkpoint = parseCheckpoint(text);
  if (E.isLeft(checkpoint)) {
    return E.left({ _tag: 'MalformedRequest', problem: checkpoint.left._tag === 'MalformedCheckpoint' ? checkpoint.left.problem : 'not a checkpoint' });
  }
  if (oldSize > checkpoint.right.size) return E.left({ _tag: 'OldSizeBeyondCheckpoint', oldSize, checkpointSize: checkpoint.right.size });
  const trusted = (s: NoteSignature) => keys.some((key) => key.name === s.name && key.keyId === s.keyId);
  return E.right({ oldSize, proof, checkpoint: checkpoint.right, text, logSignatures: parsed.right.signatures.filter(trusted) });
}

/** What the witness last cosigned for a log: its size and root. */
export interface CosignedTreeHead {
  readonly size: number;
  readonly rootHash: Uint8Array;
}

/**
 * The checks against what the witness cosigned last (`latest`, null if never): the old size
 * must be its size (409 with it), a size-0 checkpoint must have the empty tree's root, from 0
 * the proof must be empty, and otherwise the RFC 6962 §2.1.2 consistency proof must lead from
 * the cosigned root to the new one (equal sizes: an empty proof and the same root). 422 else.
 */
export function checkAgainstCosigned(sha: Sha256, request: SignedAddCheckpoint, latest: CosignedTreeHead | null): E.Either<WitnessFailure, void> {
  const current = latest?.size ?? 0;
  const { oldSize, proof } = request;
  const { size, rootHash } = request.checkpoint;
  if (oldSize !== current) return E.left({ _tag: 'SizeConflict', size: current });
  if (size === 0 && !equalBytes(rootHash, emptyRoot(sha)))
    return E.left({ _tag: 'Inconsistent', problem: 'a checkpoint of size 0 must have the root of the empty tree' });
  if (oldSize === 0) {
    return proof.length === 0 ? E.right(undefined) : E.left({ _tag: 'Inconsistent', problem: 'from size 0 the consistency proof must be empty' });
  }
  const consistent = verifyConsistency(sha, { first: oldSize, second: size, hashes: proof }, latest!.rootHash, rootHash);
  return E.isLeft(consistent) ? E.left({ _tag: 'Inconsistent', problem: describeLogProofFailure(consistent.left) }) : E.right(undefined);
}
