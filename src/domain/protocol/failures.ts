/**
 * Why an envelope is not a valid proof. Each failure is a tagged value naming the first check
 * that failed (docs/protocol.md, "Verification order") and the member it concerns.
 */
export type ProofFailure =
  | { readonly _tag: 'MalformedEnvelope'; readonly path: string; readonly problem: string }
  | { readonly _tag: 'LimitExceeded'; readonly limit: 'depth' | 'events' | 'size'; readonly max: number; readonly actual: number }
  | { readonly _tag: 'UnsupportedVersion'; readonly value: string }
  | { readonly _tag: 'UnsupportedHashAlg'; readonly value: string }
  | { readonly _tag: 'UnsupportedSignatureAlg'; readonly value: string }
  | { readonly _tag: 'InvalidTimestamp'; readonly path: string; readonly value: string }
  | ({ readonly _tag: 'TelemetryHashMismatch'; readonly claimed: string; readonly computed: string } & HashMismatchDetails)
  | ({ readonly _tag: 'PayloadHashMismatch'; readonly claimed: string; readonly computed: string } & HashMismatchDetails)
  | { readonly _tag: 'InvalidKeyEncoding'; readonly path: 'signer_public_key_b64' | 'signature_b64'; readonly problem: string }
  | { readonly _tag: 'SignatureInvalid' };

export type ProofFailureTag = ProofFailure['_tag'];

/** `TelemetryHashMismatch` → `telemetry_hash_mismatch`, as a type. */
type SnakeCase<S extends string> = S extends `${infer C}${infer Rest}` ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${SnakeCase<Rest>}` : '';
export type FailureCode<Tag extends string = ProofFailureTag> = string extends Tag ? string : SnakeCase<Uncapitalize<Tag>>;

/**
 * The `code` programs read for a failure: its tag in snake_case, the one style of every error
 * code of the API (`TelemetryHashMismatch` → `telemetry_hash_mismatch`, `UnstorableProof` →
 * `unstorable_proof`). The 422 of a refused submission, the verification report and the
 * `proof.rejected` event all take their `code` from here, so a refusal has one code everywhere.
 */
export function failureCode<Tag extends string>(tag: Tag): FailureCode<Tag> {
  return tag.replace(/[A-Z]/g, (c, at: number) => `${at === 0 ? '' : '_'}${c.toLowerCase()}`) as FailureCode<Tag>;
}

/** What a hash mismatch adds when the envelope names SHA-256 or the ACTO form was tried (docs/protocol.md). */
export interface HashMismatchDetails {
  /** `computed` is of the ACTO form (the JCS form when absent). */
  readonly form?: 'acto';
  /** With `computed` of the JCS form: the hash of the ACTO form, or null where a parsed value could not decide it. */
  readonly acto?: string | null;
  /** Present when payload.hash_alg is "sha256" (BLAKE3 when absent). */
  readonly hashAlg?: 'sha256';
}

/** The verification step each failure belongs to, in the order they run. */
export const CHECKS = ['shape', 'algorithms', 'timestamps', 'telemetry_hash', 'payload_hash', 'encoding', 'signature'] as const;
export type CheckName = (typeof CHECKS)[number];

export function checkOf(failure: ProofFailure): CheckName {
  switch (failure._tag) {
    case 'MalformedEnvelope':
    case 'LimitExceeded':
      return 'shape';
    case 'UnsupportedVersion':
    case 'UnsupportedHashAlg':
    case 'UnsupportedSignatureAlg':
      return 'algorithms';
    case 'InvalidTimestamp':
      return 'timestamps';
    case 'TelemetryHashMismatch':
      return 'telemetry_hash';
    case 'PayloadHashMismatch':
      return 'payload_hash';
    case 'InvalidKeyEncoding':
      return 'encoding';
    case 'SignatureInvalid':
      return 'signature';
  }
}

/** A sentence for people: names the member and what is wrong with it. */
export function describeFailure(failure: ProofFailure): string {
  switch (failure._tag) {
    case 'MalformedEnvelope':
      return `${failure.path} ${failure.problem}`;
    case 'LimitExceeded':
      return failure.limit === 'depth'
        ? `envelope is nested ${failure.actual} levels deep; the limit is ${failure.max}`
        : failure.limit === 'events'
          ? `payload.telemetry_normalized.events has ${failure.actual} events; the limit is ${failure.max}`
          : `envelope is ${failure.actual} bytes; the limit is ${failure.max}`;
    case 'UnsupportedVersion':
      return `payload.version must be "1" (got ${JSON.stringify(failure.value)})`;
    case 'UnsupportedHashAlg':
      return `payload.hash_alg must be "blake3" or "sha256" (got ${JSON.stringify(failure.value)})`;
    case 'UnsupportedSignatureAlg':
      return `payload.signature_alg must be "ed25519" (got ${JSON.stringify(failure.value)})`;
    case 'InvalidTimestamp':
      return `${failure.path} is not an RFC 3339 date-time with offset (got ${JSON.stringify(failure.value)})`;
    case 'TelemetryHashMismatch':
      return `payload.telemetry_hash does not match the ${hashName(failure)} of ${formOf(failure, 'telemetry_normalized')} (${claimedAndComputed(failure)})`;
    case 'PayloadHashMismatch':
      return `payload.payload_hash does not match the ${hashName(failure)} of ${formOf(failure, 'payload')} (${claimedAndComputed(failure)})`;
    case 'InvalidKeyEncoding':
      return `${failure.path} ${failure.problem}`;
    case 'SignatureInvalid':
      return 'signature_b64 is not a valid Ed25519 signature by signer_public_key_b64 over payload.payload_hash';
  }
}

/** Longest claimed hash quoted whole in a sentence; a longer one is cut. */
const QUOTED_HASH_MAX = 80;

type HashMismatch = { readonly claimed: string; readonly computed: string } & HashMismatchDetails;

const hashName = (failure: HashMismatch): string => (failure.hashAlg === 'sha256' ? 'SHA-256 hash (payload.hash_alg is "sha256")' : 'BLAKE3 hash');

const formOf = (failure: HashMismatch, member: string): string => (failure.form === 'acto' ? `the ${member} in the ACTO form` : `the canonical ${member}`);

function claimedAndComputed({ claimed, computed, acto }: HashMismatch): string {
  const quoted = claimed.length > QUOTED_HASH_MAX ? `${claimed.slice(0, 64)}… (${claimed.length} characters)` : claimed;
  // The right digest in the wrong case: say so, since the difference is easy to miss.
  const hint = claimed !== computed && claimed.toLowerCase() === computed ? '; hashes are written in lowercase hex' : '';
  const second =
    acto === undefined
      ? ''
      : acto === null
        ? '; the ACTO form needs the text as received (56 or 56.0?)'
        : acto === computed
          ? '; the ACTO form gives the same'
          : `; in the ACTO form, ${acto}`;
  return `claimed ${JSON.stringify(quoted)}, computed ${computed}${hint}${second}`;
}
