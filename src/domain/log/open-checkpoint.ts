import * as E from 'fp-ts/lib/Either.js';
import type { SignatureVerifier } from '../protocol/crypto.js';
import { parseCheckpoint, type Checkpoint } from './checkpoint.js';
import type { NoteFailure } from './log-failures.js';
import { openSignedNote } from './signed-note.js';
import type { VerifierKey } from './verifier-key.js';

export interface OpenCheckpointOptions {
  /**
   * The origin the checkpoint must name. Default: the key's name, as this log uses one name
   * for both; a checkpoint of another log signed with the same key is still not this log's.
   */
  readonly origin?: string;
}

/** Verifies a signed checkpoint note with `key`, then reads it: the text is trusted only once signed. */
export function openCheckpoint(
  verifier: SignatureVerifier,
  note: string,
  key: VerifierKey,
  options: OpenCheckpointOptions = {},
): E.Either<NoteFailure, Checkpoint> {
  const text = openSignedNote(verifier, note, key);
  if (E.isLeft(text)) return text;
  const checkpoint = parseCheckpoint(text.right);
  if (E.isLeft(checkpoint)) return checkpoint;
  const expected = options.origin ?? key.name;
  if (checkpoint.right.origin !== expected) return E.left({ _tag: 'OriginMismatch', expected, actual: checkpoint.right.origin });
  return checkpoint;
}
