import * as E from 'fp-ts/lib/Either.js';
import { decodeBase64Strict, encodeBase64 } from '../protocol/encoding.js';
import type { NoteFailure } from './log-failures.js';
import { HASH_SIZE } from './sha256.js';

/** A C2SP tlog-checkpoint: the log's identity, a tree size and that tree's root. */
export interface Checkpoint {
  readonly origin: string;
  readonly size: number;
  readonly rootHash: Uint8Array;
  /** Opaque lines after the root; C2SP recommends none, as monitors cannot audit them. */
  readonly extensions: readonly string[];
}

/** The note text of a checkpoint: origin, decimal size, base64 root, each line ending in a newline. */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  const lines = [checkpoint.origin, String(checkpoint.size), encodeBase64(checkpoint.rootHash), ...checkpoint.extensions];
  return lines.map((line) => `${line}\n`).join('');
}

const SIZE = /^(?:0|[1-9]\d*)$/;

const malformed = (problem: string): E.Either<NoteFailure, never> => E.left({ _tag: 'MalformedCheckpoint', problem });

/** Reads a checkpoint from a note's text (already verified: C2SP says never read an unverified note). */
export function parseCheckpoint(text: string): E.Either<NoteFailure, Checkpoint> {
  if (!text.endsWith('\n')) return malformed('the text does not end with a newline');
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) return malformed('fewer than three lines (origin, tree size, root hash)');
  const [origin, sizeText, rootText, ...extensions] = lines as [string, string, string, ...string[]];
  if (origin === '') return malformed('the origin line is empty');
  if (!SIZE.test(sizeText)) return malformed(`the tree size ${JSON.stringify(sizeText)} is not a decimal number without leading zeros`);
  const size = Number(sizeText);
  if (!Number.isSafeInteger(size)) return malformed(`the tree size ${sizeText} is too large`);
  const rootHash = decodeBase64Strict(rootText);
  if (rootHash === null || rootHash.length !== HASH_SIZE) return malformed('the root hash is not the base64 of 32 bytes');
  if (extensions.some((line) => line === '')) return malformed('an extension line is empty');
  return E.right({ origin, size, rootHash, extensions });
}
