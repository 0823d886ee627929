import * as E from 'fp-ts/lib/Either.js';
import { hashedInActoForm, hasherFor, type CanonicalForm, type HashAlg, type HashMismatch, type ReceivedEnvelope } from './acto-hashes.js';
import type { CanonicalJson } from './canonical.js';
import { canonicalProblem } from './canonical-problems.js';
import { digestOf, type Blake3, type Hasher, type SignatureVerifier } from './crypto.js';
import { parseRfc3339 } from './datetime.js';
import { decodeBase64Strict, utf8 } from './encoding.js';
import { PROTOCOL_VERSION, SIGNATURE_ALG, type ProofEnvelope } from './envelope.js';
import type { ProofFailure } from './failures.js';

/** What checking an envelope takes: the two primitives, and a canonical JSON writer (kept per thread, for speed). */
export interface VerifyTools {
  readonly blake3: Blake3;
  readonly verifier: SignatureVerifier;
  readonly canonical: CanonicalJson;
}

/** What a successful verification establishes. */
export interface VerifiedProof {
  readonly proofId: string;
  readonly envelope: ProofEnvelope;
  readonly createdAtMs: number;
  /**
   * A JSON text that parses to exactly `envelope`, when the checker already had one (a worker
   * pool sends envelopes as JSON text: the submitter's own, or JSON.stringify's): the text that
   * is stored, so it is not serialized twice.
   */
  readonly envelopeJson?: string;
  /** The form its hashes matched in; absent where the checker does not say (a worker's answer). */
  readonly canonicalForm?: CanonicalForm;
  readonly hashAlg?: HashAlg;
}

/** A member with no canonical form (so no bytes to hash), named where it is when it can be found. */
const NO_CANONICAL_FORM = (value: unknown, path: string): ProofFailure => {
  const found = canonicalProblem(value, path);
  return { _tag: 'MalformedEnvelope', path: found?.path ?? path, problem: found?.problem ?? 'has no canonical JSON form' };
};

/**
 * An envelope that passed checks 1–6: all that is left is check 7, the signature, which is
 * most of a check's cost and needs nothing but these bytes (so another thread can make it).
 */
export interface PendingSignature {
  readonly proofId: string;
  readonly createdAtMs: number;
  /** 32 bytes. */
  readonly publicKey: Uint8Array;
  /** What is signed: the 64-character hex text of payload_hash, as ASCII. */
  readonly message: Uint8Array;
  /** 64 bytes. */
  readonly signature: Uint8Array;
  readonly canonicalForm: CanonicalForm;
  readonly hashAlg: HashAlg;
}

/**
 * Runs checks 2–7 of docs/protocol.md on an envelope whose shape (check 1) is already known good,
 * stopping at the first failure. Hashes are computed over the members exactly as sent;
 * `received`, the envelope as received with its numbers' text, lets checks 4 and 5 match the
 * ACTO form exactly (see hashedInActoForm).
 */
export function verifyEnvelope(envelope: ProofEnvelope, tools: VerifyTools, received?: ReceivedEnvelope): E.Either<ProofFailure, VerifiedProof> {
  const pending = prepareSignatureCheck(envelope, tools, received);
  if (E.isLeft(pending)) return pending;
  const { publicKey, message, signature, proofId, createdAtMs, canonicalForm, hashAlg } = pending.right;
  // 7. The signature covers the 64-character hex text of payload_hash (what the ACTO SDK signs).
  if (!tools.verifier.verify(publicKey, message, signature)) return E.left(SIGNATURE_INVALID);
  return E.right({ proofId, envelope, createdAtMs, canonicalForm, hashAlg });
}

const SIGNATURE_INVALID: ProofFailure = { _tag: 'SignatureInvalid' };

/** Check 7's verdict on what prepareSignatureCheck left, as verifyEnvelope gives it. */
export function signatureVerdict(
  pending: PendingSignature,
  valid: boolean,
): E.Either<ProofFailure, Pick<VerifiedProof, 'proofId' | 'createdAtMs' | 'canonicalForm' | 'hashAlg'>> {
  const { proofId, createdAtMs, canonicalForm, hashAlg } = pending;
  return valid ? E.right({ proofId, createdAtMs, canonicalForm, hashAlg }) : E.left(SIGNATURE_INVALID);
}

/** Checks 2–6 on an envelope whose shape (check 1) is known good: everything but the signature. */
export function prepareSignatureCheck(
  envelope: ProofEnvelope,
  tools: Pick<VerifyTools, 'blake3' | 'canonical'>,
  received?: ReceivedEnvelope,
): E.Either<ProofFailure, PendingSignature> {
  const payload = envelope.payload;

  // 2. Versions and algorithms: anything else could mean different hashing or signing rules.
  if (payload.version !== PROTOCOL_VERSION) return E.left({ _tag: 'UnsupportedVersion', value: payload.version });
  const hasher = hasherFor(payload.hash_alg, tools.blake3);
  if (hasher === null) return E.left({ _tag: 'UnsupportedHashAlg', value: payload.hash_alg });
  if (payload.signature_alg !== SIGNATURE_ALG) return E.left({ _tag: 'UnsupportedSignatureAlg', value: payload.signature_alg });

  // 3. Timestamps.
  const createdAtMs = parseRfc3339(payload.created_at);
  if (createdAtMs === null) return E.left({ _tag: 'InvalidTimestamp', path: 'payload.created_at', value: payload.created_at });
  const events = payload.telemetry_normalized.events;
  for (let i = 0; i < events.length; i++) {
    const ts = events[i]!.ts;
    if (parseRfc3339(ts) === null) {
      return E.left({ _tag: 'InvalidTimestamp', path: `payload.telemetry_normalized.events[${i}].ts`, value: ts });
    }
  }

  // 4 and 5, over the payload's canonical bytes, written once. Only where the JCS form does not
  // match is the ACTO form tried (docs/protocol.md, "The ACTO form").
  const jcs = checkHashes(payload, hasher, tools.canonical);
  const checked = 'payloadHash' in jcs || !isHashMismatch(jcs.failure) ? jcs : hashedInActoForm(payload, jcs.failure, hasher, received);
  const hashAlg = payload.hash_alg as HashAlg;
  if (!('payloadHash' in checked)) return E.left(hashAlg === 'sha256' && isHashMismatch(checked.failure) ? { ...checked.failure, hashAlg } : checked.failure);
  const payloadHash = checked.payloadHash;
  const canonicalForm: CanonicalForm = checked === jcs ? 'jcs' : 'acto';
  // 6. Encodings.
  const publicKey = decodeBase64Strict(envelope.signer_public_key_b64);
  if (publicKey === null || publicKey.length !== 32) {
    return E.left({
      _tag: 'InvalidKeyEncoding',
      path: 'signer_public_key_b64',
      problem: publicKey === null ? 'is not canonical padded base64' : `must decode to 32 bytes (got ${publicKey.length})`,
    });
  }
  const signature = decodeBase64Strict(envelope.signature_b64);
  if (signature === null || signature.length !== 64) {
    return E.left({
      _tag: 'InvalidKeyEncoding',
      path: 'signature_b64',
      problem: signature === null ? 'is not canonical padded base64' : `must decode to 64 bytes (got ${signature.length})`,
    });
  }

  return E.right({ proofId: payloadHash, createdAtMs, publicKey, message: utf8(payloadHash), signature, canonicalForm, hashAlg });
}

const isHashMismatch = (failure: ProofFailure): failure is HashMismatch => failure._tag === 'TelemetryHashMismatch' || failure._tag === 'PayloadHashMismatch';

type Hashed = { readonly payloadHash: string } | { readonly failure: ProofFailure };

/** Checks 4 and 5: the telemetry's canonical bytes are a span of the payload's. */
function checkHashes(payload: ProofEnvelope['payload'], hasher: Hasher, canonical: CanonicalJson): Hashed {
  const written = canonical.payload(payload);
  if (written === null) return withoutCanonicalForm(payload, hasher, canonical);
  // 4. telemetry_hash.
  const telemetryHash = digestOf(hasher, written.telemetry);
  if (telemetryHash !== payload.telemetry_hash) {
    return { failure: { _tag: 'TelemetryHashMismatch', claimed: payload.telemetry_hash, computed: telemetryHash } };
  }
  // 5. payload_hash: binds subject, times, telemetry_hash and meta together.
  const payloadHash = digestOf(hasher, written.bytes);
  if (payloadHash !== payload.payload_hash) {
    return { failure: { _tag: 'PayloadHashMismatch', claimed: payload.payload_hash, computed: payloadHash } };
  }
  return { payloadHash };
}

/**
 * A payload with no canonical bytes fails where the checks meet the problem, in their order:
 * a telemetry with none fails check 4 on that; one with a canonical form is hashed and
 * compared first; then the rest of the payload fails check 5. A lone surrogate has no UTF-8
 * form and Infinity no JSON form, so such a value can never be hashed the same way twice.
 */
function withoutCanonicalForm(payload: ProofEnvelope['payload'], hasher: Hasher, canonical: CanonicalJson): Hashed {
  const telemetryText = canonical.text(payload.telemetry_normalized);
  if (telemetryText === null) return { failure: NO_CANONICAL_FORM(payload.telemetry_normalized, 'payload.telemetry_normalized') };
  const telemetryHash = hasher.hashText(telemetryText);
  if (telemetryHash !== payload.telemetry_hash) {
    return { failure: { _tag: 'TelemetryHashMismatch', claimed: payload.telemetry_hash, computed: telemetryHash } };
  }
  return { failure: NO_CANONICAL_FORM(payload, 'payload') };
}
