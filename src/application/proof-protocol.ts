import type * as E from 'fp-ts/lib/Either.js';
import { CanonicalJson } from '../domain/protocol/canonical.js';
import { blake3Of, type Blake3, type Signer, type SignatureVerifier } from '../domain/protocol/crypto.js';
import { createEnvelope, type EnvelopeInput } from '../domain/protocol/create-envelope.js';
import type { ProofEnvelope } from '../domain/protocol/envelope.js';
import type { ProofFailure } from '../domain/protocol/failures.js';
import type { ProofChecker } from './ports/proof-checker.js';
import { DEFAULT_LIMITS, type ProtocolLimits } from '../domain/protocol/limits.js';
import type { VerifiedProof } from '../domain/protocol/verify-envelope.js';
import type { PendingSignature } from '../domain/protocol/verify-envelope.js';
import { prepareUnknown, toReport, verifyUnknown, type VerificationReport } from './verify-proof.js';

/**
 * The proof protocol as one object: what a device needs to make envelopes and what any
 * service needs to check them. Synchronous once built; build it with `createProofProtocol()`.
 */
export class ProofProtocol {
  constructor(
    readonly blake3: Blake3,
    readonly verifier: SignatureVerifier,
    readonly signer: Signer,
    readonly limits: ProtocolLimits = DEFAULT_LIMITS,
  ) {}

  /** This protocol's canonical JSON writer: its buffer and memo are reused from one envelope to the next. */
  readonly canonical = new CanonicalJson();

  /** Verifies any JSON value as an envelope; never throws. */
  verify(raw: unknown): VerificationReport {
    return toReport(this.check(raw));
  }

  /** As a ProofChecker port, on the calling thread. */
  readonly checker: ProofChecker = { check: async (raw) => this.check(raw) };

  /** Like `verify`, with the tagged failure or the verified proof for programs. */
  check(raw: unknown): E.Either<ProofFailure, VerifiedProof> {
    return verifyUnknown(raw, this, this.limits);
  }

  /**
   * Checks 1–6 (everything but the signature), for callers that verify signatures elsewhere,
   * e.g. on other threads: `signatureVerdict(pending, verifier.verify(…))` completes `check`.
   */
  prepare(raw: unknown): E.Either<ProofFailure, PendingSignature> {
    return prepareUnknown(raw, this, this.limits);
  }

  /** Builds and signs an envelope with a 32-byte Ed25519 seed. */
  create(input: EnvelopeInput, seed: Uint8Array): ProofEnvelope {
    return createEnvelope(input, seed, this);
  }

  /** RFC 8785 canonical text of a JSON value; throws on a value that has none (see CanonicalJson). */
  canonicalize(value: unknown): string {
    const text = this.canonical.text(value);
    if (text === null) throw new TypeError('value has no canonical JSON form');
    return text;
  }

  telemetryHash(telemetryNormalized: unknown): string {
    return this.blake3.hashText(this.canonicalize(telemetryNormalized));
  }

  /** BLAKE3 of the canonical payload without its payload_hash member: the proof id. */
  payloadHash(payload: Record<string, unknown>): string {
    const written = this.canonical.payload(payload);
    if (written === null) throw new TypeError('payload has no canonical JSON form');
    return blake3Of(this.blake3, written.bytes);
  }

  publicKey(seed: Uint8Array): Uint8Array {
    return this.signer.publicKey(seed);
  }
}
