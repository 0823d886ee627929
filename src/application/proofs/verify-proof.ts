import * as E from 'fp-ts/lib/Either.js';
import { isRight } from 'fp-ts/lib/Either.js';
import type { ProofEnvelope } from '../../domain/protocol/envelope.js';
import { CHECKS, checkOf, describeFailure, failureCode, type CheckName, type FailureCode, type ProofFailure } from '../../domain/protocol/failures.js';
import { DEFAULT_LIMITS, jsonDepth, type ProtocolLimits } from '../../domain/protocol/limits.js';
import type { CanonicalForm, HashAlg, ReceivedEnvelope } from '../../domain/protocol/acto-hashes.js';
import { prepareSignatureCheck, verifyEnvelope, type PendingSignature, type VerifiedProof, type VerifyTools } from '../../domain/protocol/verify-envelope.js';
import { firstProblem } from '../codecs/codec-errors.js';
import { EnvelopeCodec } from '../codecs/envelope.codec.js';

/**
 * Check 1 (shape and limits) on an unknown JSON value. The decoded envelope is the value as
 * sent, so the hashes later cover exactly the members the device signed.
 */
export function decodeEnvelope(raw: unknown, limits: ProtocolLimits = DEFAULT_LIMITS): E.Either<ProofFailure, ProofEnvelope> {
  const depth = jsonDepth(raw, limits.maxDepth);
  if (depth > limits.maxDepth) return E.left({ _tag: 'LimitExceeded', limit: 'depth', max: limits.maxDepth, actual: depth });
  // The codec's type guard accepts what it decodes (no member is transformed) at a third of
  // the cost: decoding, which collects the errors, runs only on a bad shape.
  if (!EnvelopeCodec.is(raw) || !hasDenseEvents(raw)) {
    const decoded = EnvelopeCodec.decode(raw);
    if (!isRight(decoded)) {
      const { path, problem } = firstProblem(decoded.left);
      return E.left({ _tag: 'MalformedEnvelope', path: path === '(body)' ? 'envelope' : path, problem });
    }
  }
  const envelope = raw as ProofEnvelope;
  const events = envelope.payload.telemetry_normalized.events.length;
  if (events > limits.maxEvents) return E.left({ _tag: 'LimitExceeded', limit: 'events', max: limits.maxEvents, actual: events });
  return E.right(envelope);
}

/**
 * The guard tests an array with its own `every`, which skips holes (and can be replaced),
 * while decoding reads every index: for arrays that are not JSON's, decoding decides.
 */
function hasDenseEvents(envelope: { payload: { telemetry_normalized: { events: readonly unknown[] } } }): boolean {
  const events = envelope.payload.telemetry_normalized.events;
  if (events.every !== ARRAY_EVERY) return false;
  for (let i = 0; i < events.length; i++) if (!(i in events)) return false;
  return true;
}

const ARRAY_EVERY: unknown = Array.prototype.every;

/**
 * Checks 1–7 on an unknown value; `received` (the same envelope as received, numbers' text
 * kept) lets the ACTO form be checked exactly where the JCS form does not match.
 */
export function verifyUnknown(
  raw: unknown,
  tools: VerifyTools,
  limits: ProtocolLimits = DEFAULT_LIMITS,
  received?: ReceivedEnvelope,
): E.Either<ProofFailure, VerifiedProof> {
  const envelope = decodeEnvelope(raw, limits);
  return isRight(envelope) ? verifyEnvelope(envelope.right, tools, received) : envelope;
}

/**
 * Checks 1–6 on an unknown value: what is left is the signature, whose verdict
 * `signatureVerdict` turns into what verifyUnknown gives.
 */
export function prepareUnknown(
  raw: unknown,
  tools: Pick<VerifyTools, 'blake3' | 'canonical'>,
  limits: ProtocolLimits = DEFAULT_LIMITS,
  received?: ReceivedEnvelope,
): E.Either<ProofFailure, PendingSignature> {
  const envelope = decodeEnvelope(raw, limits);
  return isRight(envelope) ? prepareSignatureCheck(envelope.right, tools, received) : envelope;
}

export type CheckStatus = 'passed' | 'failed' | 'skipped';

/** The verdict as the library, the CLI and `POST /v1/verify` report it. */
export interface VerificationReport {
  readonly valid: boolean;
  /** The proof id (= payload_hash) when valid, else null. */
  readonly proof_id: string | null;
  /** Why it is invalid, naming the member; null when valid. */
  readonly reason: string | null;
  /** The failure's code, for programs: its tag in snake_case (`payload_hash_mismatch`); null when valid. */
  readonly code: FailureCode | null;
  /** Each check in order: passed up to the failing one, skipped after it. */
  readonly checks: Readonly<Record<CheckName, CheckStatus>>;
  /** When valid, the form its hashes matched: `jcs` (RFC 8785) or `acto` (orjson, docs/protocol.md); else null. */
  readonly canonical_form: CanonicalForm | null;
  /** When valid, the hash it names and that matched: `blake3` or `sha256`; else null. */
  readonly hash_alg: HashAlg | null;
}

export function toReport(result: E.Either<ProofFailure, Pick<VerifiedProof, 'proofId' | 'canonicalForm' | 'hashAlg'>>): VerificationReport {
  const failedAt = isRight(result) ? -1 : CHECKS.indexOf(checkOf(result.left));
  const checks = Object.fromEntries(
    CHECKS.map((name, i) => [name, failedAt === -1 || i < failedAt ? 'passed' : i === failedAt ? 'failed' : 'skipped']),
  ) as Record<CheckName, CheckStatus>;
  return isRight(result)
    ? {
        valid: true,
        proof_id: result.right.proofId,
        reason: null,
        code: null,
        checks,
        canonical_form: result.right.canonicalForm ?? null,
        hash_alg: result.right.hashAlg ?? null,
      }
    : { valid: false, proof_id: null, reason: describeFailure(result.left), code: failureCode(result.left._tag), checks, canonical_form: null, hash_alg: null };
}
