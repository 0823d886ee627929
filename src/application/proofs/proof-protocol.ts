import * as E from 'fp-ts/lib/Either.js';
import type { ReceivedEnvelope } from '../../domain/protocol/acto-hashes.js';
import { CanonicalJson } from '../../domain/protocol/canonical.js';
import { digestOf, type Blake3, type Signer, type SignatureVerifier } from '../../domain/protocol/crypto.js';
import { createEnvelope, type EnvelopeInput } from '../../domain/protocol/create-envelope.js';
import type { ProofEnvelope } from '../../domain/protocol/envelope.js';
import type { ProofFailure } from '../../domain/protocol/failures.js';
import type { ProofChecker } from '../ports/proof-checker.js';
import { DEFAULT_LIMITS, type ProtocolLimits } from '../../domain/protocol/limits.js';
import type { VerifiedProof } from '../../domain/protocol/verify-envelope.js';
import type { PendingSignature } from '../../domain/protocol/verify-envelope.js';
import { envelopeFromText, envelopeToCheck, receivedText } from './received-envelope.js';
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

  /**
   * Verifies an envelope given as a parsed JSON value; never throws. Envelopes made by the ACTO
   * SDK are hashed in a form that depends on how their numbers were written (`56.0` or `56`),
   * which a parsed value no longer says: it is decided where the value still tells, and exactly
   * with `received`, the same envelope as received (see receivedText), or with a value read by
   * parseReceivedJson. Where you have the JSON text, `verifyText` is simpler.
   */
  verify(raw: unknown, received?: ReceivedEnvelope): VerificationReport {
    return toReport(this.check(raw, received));
  }

  /** Verifies an envelope's JSON text as received (both canonical forms checked exactly); never throws. */
  verifyText(text: string): VerificationReport {
    return toReport(this.checkText(text));
  }

  /** As a ProofChecker port, on the calling thread; the submitter's text, when given, is what the ACTO form is read from. */
  readonly checker: ProofChecker = {
    check: async (raw, json) => this.check(raw, json === undefined ? undefined : receivedText(json, this.limits.maxDepth)()),
  };

  /** Like `verify`, with the tagged failure or the verified proof for programs. */
  check(raw: unknown, received?: ReceivedEnvelope): E.Either<ProofFailure, VerifiedProof> {
    const given = envelopeToCheck(raw, received);
    return verifyUnknown(given.raw, this, this.limits, given.received);
  }

  /** Like `verifyText`, with the tagged failure or the verified proof, whose envelopeJson is the text. */
  checkText(text: string): E.Either<ProofFailure, VerifiedProof> {
    const given = envelopeFromText(text, this.limits.maxDepth);
    if (E.isLeft(given)) return given;
    const result = this.check(given.right.raw, given.right.received);
    return E.isRight(result) ? E.right({ ...result.right, envelopeJson: text }) : result;
  }

  /**
   * Checks 1–6 (everything but the signature), for callers that verify signatures elsewhere,
   * e.g. on other threads: `signatureVerdict(pending, verifier.verify(…))` completes `check`.
   */
  prepare(raw: unknown, received?: ReceivedEnvelope): E.Either<ProofFailure, PendingSignature> {
    const given = envelopeToCheck(raw, received);
    return prepareUnknown(given.raw, this, this.limits, given.received);
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
    return digestOf(this.blake3, written.bytes);
  }

  publicKey(seed: Uint8Array): Uint8Array {
    return this.signer.publicKey(seed);
  }
}
