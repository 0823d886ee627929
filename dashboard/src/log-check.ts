/**
 * Checks the registry's transparency log in the browser, trusting nothing the server says:
 * the checkpoint's signature with the log's Ed25519 key and the RFC 9162 inclusion proof,
 * with the library's own verification code (src/application/log, src/domain/log) and the
 * browser's WebCrypto. Loaded on demand (a dynamic import), so it costs the first load nothing.
 *
 * The library's checks are synchronous; WebCrypto is not. So each check runs against a memo
 * of digests and signature verdicts: a value it lacks stops the run, is computed with
 * crypto.subtle, and the check runs again, until it completes. A run is a few dozen hashes
 * (one per level of the tree), so replaying it costs nothing the user could notice.
 */
import * as E from 'fp-ts/lib/Either.js';
import { LogVerifier, type InclusionAnswerFailure, type InclusionAnswerJson } from '../../src/application/log/log-verifier.js';
import type { Checkpoint } from '../../src/domain/log/checkpoint.js';
import { describeLogProofFailure, describeNoteFailure, type LogProofFailure, type NoteFailure } from '../../src/domain/log/log-failures.js';
import type { Sha256 } from '../../src/domain/log/sha256.js';
import type { SignatureVerifier } from '../../src/domain/protocol/crypto.js';

/** Thrown by the memo when a value is not there yet: how to compute it. */
class Missing {
  constructor(readonly compute: () => Promise<void>) {}
}

/** This browser has no WebCrypto Ed25519: nothing can be said about the signature. */
export class NoEd25519 extends Error {
  constructor(cause: unknown) {
    super(`this browser cannot check Ed25519 signatures (WebCrypto): ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
/** A copy in its own ArrayBuffer, which is what WebCrypto takes. */
const own = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);

class WebCryptoMemo implements Sha256, SignatureVerifier {
  private readonly digests = new Map<string, Uint8Array>();
  private readonly verdicts = new Map<string, boolean>();

  digest(data: Uint8Array): Uint8Array {
    const key = hex(data);
    const known = this.digests.get(key);
    if (known) return known;
    const input = own(data);
    throw new Missing(async () => {
      this.digests.set(key, new Uint8Array(await crypto.subtle.digest('SHA-256', input)));
    });
  }

  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
    const key = `${hex(publicKey)} ${hex(signature)} ${hex(message)}`;
    const known = this.verdicts.get(key);
    if (known !== undefined) return known;
    const [pk, msg, sig] = [own(publicKey), own(message), own(signature)];
    throw new Missing(async () => {
      let imported: CryptoKey;
      try {
        imported = await crypto.subtle.importKey('raw', pk, { name: 'Ed25519' }, false, ['verify']);
      } catch (e) {
        // A key of the wrong length is a bad key; an unknown algorithm is this browser's limit.
        if (e instanceof DOMException && e.name === 'NotSupportedError') throw new NoEd25519(e);
        this.verdicts.set(key, false);
        return;
      }
      this.verdicts.set(key, await crypto.subtle.verify({ name: 'Ed25519' }, imported, sig, msg));
    });
  }
}

/** Runs a synchronous check until every digest and verdict it needs is in the memo. */
async function settle<T>(check: () => T): Promise<T> {
  for (let round = 0; round < 10_000; round++) {
    try {
      return check();
    } catch (e) {
      if (!(e instanceof Missing)) throw e;
      await e.compute();
    }
  }
  throw new Error('the check did not complete');
}

function describe(failure: InclusionAnswerFailure): string {
  switch (failure._tag) {
    case 'MalformedAnswer':
      return `the answer is malformed: ${failure.problem}`;
    case 'CheckpointSizeMismatch':
      return `the proof is for tree size ${failure.treeSize}, its checkpoint for ${failure.checkpointSize}`;
    case 'LeafMismatch':
      return 'the proof is about another leaf than this proof';
    case 'LeafIndexBeyondTree':
    case 'TreeSizesInvalid':
    case 'ProofLengthWrong':
    case 'MalformedHash':
    case 'RootMismatch':
      return describeLogProofFailure(failure as LogProofFailure);
    default:
      return describeNoteFailure(failure as NoteFailure);
  }
}

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly why: string };

/** A checkpoint, opened: its signature by `vkey` verified, its origin the key's name. */
export async function openCheckpointHere(note: string, vkey: string): Promise<Checked<Checkpoint>> {
  const memo = new WebCryptoMemo();
  const verifier = new LogVerifier(memo, memo);
  const opened = await settle(() => verifier.openCheckpoint(note, vkey));
  return E.isRight(opened) ? { ok: true, value: opened.right } : { ok: false, why: describeNoteFailure(opened.left) };
}

/**
 * An inclusion answer (GET /v1/log/inclusion/{proof_id}), checked end to end: its checkpoint
 * signed by `vkey`, the proof for that size, about the leaf `proofId` (payload_hash), and
 * leading to the checkpoint's root.
 */
export async function verifyInclusionHere(answer: InclusionAnswerJson, vkey: string, proofId: string): Promise<Checked<Checkpoint>> {
  if (!/^[0-9a-f]{64}$/.test(proofId)) return { ok: false, why: 'the proof id is not 64 lowercase hex digits' };
  const leaf = new Uint8Array(proofId.match(/../g)!.map((b) => parseInt(b, 16)));
  const memo = new WebCryptoMemo();
  const verifier = new LogVerifier(memo, memo);
  const checked = await settle(() => verifier.verifyInclusionAnswer(answer, vkey, leaf));
  return E.isRight(checked) ? { ok: true, value: checked.right } : { ok: false, why: describe(checked.left) };
}

/** Lowercase hex of a root hash, as the API writes hashes. */
export const rootHex = (checkpoint: Checkpoint): string => hex(checkpoint.rootHash);
