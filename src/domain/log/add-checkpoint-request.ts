import * as E from 'fp-ts/lib/Either.js';
import { decodeBase64Strict } from '../protocol/encoding.js';
import { HASH_SIZE } from './sha256.js';

/** c2sp.org/tlog-witness add-checkpoint: the client MUST NOT send more consistency proof lines than this. */
export const MAX_PROOF_LINES = 63;

/** An add-checkpoint request body, read but not verified: the checkpoint is still an unopened note. */
export interface AddCheckpointRequest {
  /** The size of the latest checkpoint the client believes the witness cosigned. */
  readonly oldSize: number;
  /** The RFC 6962 §2.1.2 consistency proof from `oldSize` to the checkpoint's size. */
  readonly proof: readonly Uint8Array[];
  /** The signed checkpoint note, signatures included. */
  readonly note: string;
}

export interface MalformedRequest {
  readonly _tag: 'MalformedRequest';
  readonly problem: string;
}

const SIZE = /^(?:0|[1-9]\d*)$/;

const malformed = (problem: string): E.Either<MalformedRequest, never> => E.left({ _tag: 'MalformedRequest', problem });

/**
 * tlog-witness "add-checkpoint": `old <size>\n`, zero to 63 lines of one base64 hash each, an
 * empty line, then the checkpoint. Every line ends in a newline; the size is decimal with no
 * leading zero. The checkpoint is returned as text, to be opened with the log's keys.
 */
export function parseAddCheckpointRequest(body: string): E.Either<MalformedRequest, AddCheckpointRequest> {
  const first = body.indexOf('\n');
  if (first < 0) return malformed('no old size line');
  const oldLine = body.slice(0, first);
  if (!oldLine.startsWith('old ')) return malformed(`the first line ${JSON.stringify(oldLine.slice(0, 40))} is not "old <size>"`);
  const sizeText = oldLine.slice(4);
  if (!SIZE.test(sizeText)) return malformed(`the old size ${JSON.stringify(sizeText.slice(0, 40))} is not a decimal number without leading zeros`);
  const oldSize = Number(sizeText);
  if (!Number.isSafeInteger(oldSize)) return malformed(`the old size ${sizeText} is too large`);
  const proof: Uint8Array[] = [];
  let at = first + 1;
  for (;;) {
    const end = body.indexOf('\n', at);
    if (end < 0) return malformed('no empty line ends the consistency proof');
    const line = body.slice(at, end);
    at = end + 1;
    if (line === '') break;
    if (proof.length === MAX_PROOF_LINES) return malformed(`more than ${MAX_PROOF_LINES} consistency proof lines`);
    const hash = decodeBase64Strict(line);
    if (hash === null || hash.length !== HASH_SIZE) return malformed(`consistency proof line ${proof.length + 1} is not the base64 of a 32-byte hash`);
    proof.push(hash);
  }
  const note = body.slice(at);
  if (note === '') return malformed('no checkpoint follows the empty line');
  return E.right({ oldSize, proof, note });
}
