import type { SignatureVerifier } from '../../domain/protocol/crypto.js';
import type { CheckOutcome } from '../crypto/inline-batch-verifier.js';
import type { ProofProtocolOptions } from '../crypto/proof-protocol-factory.js';

/** What the pool hands each verify worker at start: the same protocol options as its inline path. */
export interface VerifyWorkerConfig {
  readonly protocol: ProofProtocolOptions;
}

/**
 * Work for a verify worker. Submissions travel as one JSON text of an array of envelopes:
 * measured on 2.5 KB proofs, JSON.stringify + JSON.parse cost about 10 + 13 µs per envelope
 * against 12 + 21 µs for the structured-clone serializer, and a request body is JSON anyway.
 */
export type ChunkRequest =
  /**
   * Submissions: a JSON array of envelopes. `asSent` lists the indexes whose text is the
   * submitter's own (numbers as sent, so the ACTO form can be judged exactly); the others were
   * written by JSON.stringify from a parsed value.
   */
  | { readonly id: number; readonly json: string; readonly asSent?: readonly number[] }
  /** Signatures alone (check 7 of a batch verify): `count` records of SIGNATURE_RECORD_BYTES, transferred. */
  | { readonly id: number; readonly signatures: ArrayBuffer; readonly count: number };

/** One signature to check, packed: public key (32 bytes), message (64: payload_hash in hex), signature (64). */
export const SIGNATURE_RECORD_BYTES = 32 + 64 + 64;

/** A signature's verdict as a worker sends it back, one byte per record. */
export const SIGNATURE = { INVALID: 0, VALID: 1, THREW: 2 } as const;

/** One signature's verdict byte: a verifier that throws is reported as such, to be redone inline. */
export function signatureVerdictByte(verifier: SignatureVerifier, publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): number {
  try {
    return verifier.verify(publicKey, message, signature) ? SIGNATURE.VALID : SIGNATURE.INVALID;
  } catch {
    return SIGNATURE.THREW;
  }
}

export type WorkerReply =
  | { readonly type: 'ready' }
  /** One check outcome per envelope of a JSON request, in order. */
  | { readonly type: 'done'; readonly id: number; readonly results: CheckOutcome[] }
  /** One SIGNATURE verdict per record of a signatures request, in order. */
  | { readonly type: 'verified'; readonly id: number; readonly verdicts: Uint8Array }
  /** The request could not be handled at all (e.g. unparseable text); the pool redoes it inline. */
  | { readonly type: 'failed'; readonly id: number; readonly error: string };
