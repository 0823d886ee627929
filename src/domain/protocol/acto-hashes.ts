import { actoPayloadTexts } from './acto-canonical.js';
import type { ExponentSpelling } from './acto-numbers.js';
import type { Blake3, Hasher } from './crypto.js';
import type { ProofPayload } from './envelope.js';
import type { ProofFailure } from './failures.js';
import { NumberText, receivedMember, type ReceivedJson, type ReceivedObject } from './received-json.js';

/** Which canonical form a verified envelope's hashes are of (docs/protocol.md, "Canonical bytes" and "The ACTO form"). */
export type CanonicalForm = 'jcs' | 'acto';

/** The hash algorithms `payload.hash_alg` may name: BLAKE3, and SHA-256 as ACTO allows. */
export type HashAlg = 'blake3' | 'sha256';

/** The hasher for `hash_alg`, or null for an algorithm this verifier does not take (check 2). */
export function hasherFor(hashAlg: string, blake3: Blake3): Hasher | null {
  if (hashAlg === 'blake3') return blake3;
  return hashAlg === 'sha256' ? (blake3.sha256 ?? null) : null;
}

/**
 * The envelope as received, with each number's text, when the verifier has it (the JSON text it
 * was parsed from, read by parseReceivedJson). A function, so that the text is read only when
 * the JCS form did not match; null when it cannot be read.
 */
export type ReceivedEnvelope = () => ReceivedJson | null;

export type HashMismatch = Extract<ProofFailure, { _tag: 'TelemetryHashMismatch' | 'PayloadHashMismatch' }>;
export type Hashed = { readonly payloadHash: string } | { readonly failure: ProofFailure };

/**
 * Checks 4 and 5 in the ACTO form, for a payload whose hashes did not match in the JCS form
 * (`jcs`, the failure that gave). Both hashes must match in the ACTO form, with one exponent
 * spelling: an envelope is hashed whole by one orjson. The spelling of ryu (`1e16`) is tried
 * first; the other (`1e+16`) only when the payload holds a float whose text it changes.
 *
 * From the received text the form is exact. From a parsed value, whose numbers' text is lost,
 * a number is read as Python's JSON would have written it were it an int when it is whole, and
 * a float otherwise: that decides envelopes whose floats all have a fraction (and key order
 * above U+FFFF); one with a whole number may also have been `56.0`, so a mismatch there is
 * reported as undecided (`acto: null`) rather than computed.
 *
 * A match is bound to the very value checked: the received payload must be the envelope's own
 * (same members, strings and numbers), or the parsed value is used instead.
 */
export function hashedInActoForm(payload: ProofPayload, jcs: HashMismatch, hasher: Hasher, received?: ReceivedEnvelope): Hashed {
  const source = actoSource(payload, received);
  if (source === null) return { failure: jcs };
  const claimed = { telemetry: payload.telemetry_hash, payload: payload.payload_hash };
  let first: { telemetry: string; payload: string } | undefined;
  let telemetryMatched: string | undefined;
  for (const spelling of SPELLINGS) {
    const texts = actoPayloadTexts(source.payload, spelling);
    // No ACTO form (an int past 64 bits): from a parsed value, that whole number may have been a float.
    if (texts === null) return { failure: source.decided ? jcs : { ...jcs, acto: null } };
    const hashes = { telemetry: hasher.hashText(texts.telemetry), payload: hasher.hashText(texts.payload) };
    if (hashes.telemetry === claimed.telemetry && hashes.payload === claimed.payload) return { payloadHash: hashes.payload };
    first ??= hashes;
    if (hashes.telemetry === claimed.telemetry) telemetryMatched ??= hashes.payload;
    if (!texts.spellingMatters) break;
  }
  if (!source.decided) return { failure: { ...jcs, acto: null } };
  // The telemetry matched in the ACTO form only: the payload is what fails, in that form.
  if (jcs._tag === 'TelemetryHashMismatch' && telemetryMatched !== undefined) {
    return { failure: { _tag: 'PayloadHashMismatch', claimed: claimed.payload, computed: telemetryMatched, form: 'acto' } };
  }
  const acto = jcs._tag === 'TelemetryHashMismatch' ? first!.telemetry : (telemetryMatched ?? first!.payload);
  return { failure: { ...jcs, acto } };
}

const SPELLINGS: readonly ExponentSpelling[] = ['ryu', 'plus'];

/** The received payload when it is the checked one, else the parsed payload read as described above. */
function actoSource(payload: ProofPayload, received?: ReceivedEnvelope): { payload: ReceivedObject; decided: boolean } | null {
  const fromText = receivedMember(received?.() ?? undefined, 'payload');
  if (fromText instanceof Map && sameValue(fromText, payload)) return { payload: fromText, decided: true };
  const state = { whole: false, depth: 0 };
  const fromValue = fromParsed(payload, state);
  return fromValue instanceof Map ? { payload: fromValue, decided: !state.whole } : null;
}

/** Whether `received` is the JSON value `value` (JSON.parse of its text gives `value`). */
export function sameValue(received: ReceivedJson, value: unknown): boolean {
  if (received instanceof NumberText) return typeof value === 'number' && Object.is(Number(received.text), value);
  if (Array.isArray(received)) return Array.isArray(value) && value.length === received.length && received.every((item, i) => sameValue(item, value[i]));
  if (received instanceof Map) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const names = Object.keys(value);
    if (names.length !== received.size) return false;
    for (const name of names) {
      const member = received.get(name);
      if (member === undefined || !sameValue(member, (value as Record<string, unknown>)[name])) return false;
    }
    return true;
  }
  return received === value;
}

/** Deeper than any envelope that passed check 1: a guard for values given to the domain directly. */
const MAX_PARSED_DEPTH = 1000;

/** A parsed JSON value as a received one (see hashedInActoForm); undefined for what JSON does not hold. */
function fromParsed(value: unknown, state: { whole: boolean; depth: number }): ReceivedJson | undefined {
  switch (typeof value) {
    case 'number':
      if (!Number.isFinite(value)) return undefined;
      if (!Number.isInteger(value)) return new NumberText(String(value)); // always with `.` or `e`
      state.whole = true;
      return new NumberText(Number.isSafeInteger(value) ? String(value) : BigInt(value).toString());
    case 'string':
    case 'boolean':
      return value;
    case 'object': {
      if (value === null) return null;
      if (state.depth >= MAX_PARSED_DEPTH) return undefined;
      state.depth++;
      try {
        return Array.isArray(value) ? arrayFromParsed(value as unknown[], state) : objectFromParsed(value, state);
      } finally {
        state.depth--;
      }
    }
    default:
      return undefined;
  }
}

function arrayFromParsed(value: readonly unknown[], state: { whole: boolean; depth: number }): ReceivedJson | undefined {
  const items: ReceivedJson[] = [];
  for (const item of value) {
    const converted = fromParsed(item, state);
    if (converted === undefined) return undefined;
    items.push(converted);
  }
  return items;
}

/** Plain objects only: a Date or a class instance is not what a JSON text holds. */
function objectFromParsed(value: object, state: { whole: boolean; depth: number }): ReceivedJson | undefined {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const members: ReceivedObject = new Map();
  for (const [name, member] of Object.entries(value)) {
    const converted = fromParsed(member, state);
    if (converted === undefined) return undefined;
    members.set(name, converted);
  }
  return members;
}
