import { isRight } from 'fp-ts/lib/Either.js';
import { actoText } from '../../src/domain/protocol/acto-canonical.js';
import type { ExponentSpelling } from '../../src/domain/protocol/acto-numbers.js';
import { encodeBase64, utf8 } from '../../src/domain/protocol/encoding.js';
import { parseReceivedJson } from '../../src/domain/protocol/received-json.js';
import { readJsonFixture } from './fixtures.js';
import { blake3, protocol, testSeed } from './protocol.js';

/** Envelopes the ACTO SDK made (test/fixtures/acto/sdk-envelopes.json), each as the body text its HTTP client sent. */
export interface SdkEnvelopeCase {
  readonly name: string;
  readonly description: string;
  readonly body: string;
  readonly expect: { readonly valid: boolean; readonly proof_id?: string; readonly failed_check?: string };
}

export const sdkEnvelopes = (): readonly SdkEnvelopeCase[] => readJsonFixture<{ cases: SdkEnvelopeCase[] }>('acto/sdk-envelopes.json').cases;

/** The envelope's own text in a body `{"envelope": …}` as Python's JSON writes it. */
export function envelopeTextOf(body: string): string {
  const opening = '{"envelope": ';
  if (!body.startsWith(opening) || !body.endsWith('}')) throw new Error('not a body of one envelope as the SDK writes it');
  return body.slice(opening.length, -1);
}

export interface ActoEnvelopeOptions {
  /** JSON texts, as Python's json.dumps writes them (e.g. `{"temp": 56.0}`). */
  readonly data?: string;
  readonly meta?: string;
  readonly hashAlg?: 'blake3' | 'sha256';
  /** The exponent spelling of the orjson that hashed telemetry_normalized, and the payload (default: the same). */
  readonly spelling?: ExponentSpelling;
  readonly payloadSpelling?: ExponentSpelling;
  readonly seed?: number;
}

/**
 * An envelope's JSON text made as the ACTO SDK makes one: the shape create_proof gives it, its
 * hashes over the ACTO form (actoText, which the orjson fixture holds to orjson's output), and
 * its signature over payload_hash.
 */
export function actoEnvelopeText(o: ActoEnvelopeOptions = {}): string {
  const alg = o.hashAlg ?? 'blake3';
  const hasher = alg === 'sha256' ? blake3.sha256 : blake3;
  const meta = o.meta ?? '{}';
  const telemetry = `{"task_id": "t-1", "robot_id": "arm-1", "run_id": null, "meta": ${meta}, "events": [{"ts": "2026-11-20T10:00:00Z", "topic": "sensor", "data": ${o.data ?? '{}'}}]}`;
  const hash = (text: string, spelling: ExponentSpelling) => {
    const read = parseReceivedJson(text, 64);
    const written = isRight(read) ? actoText(read.right, spelling) : null;
    if (written === null) throw new Error(`no ACTO form: ${text}`);
    return hasher.hashText(written.text);
  };
  const head = `{"version": "1", "subject": {"task_id": "t-1", "robot_id": "arm-1", "run_id": null}, "created_at": "2026-11-25T10:49:01.688155+00:00", "telemetry_normalized": ${telemetry}, "telemetry_hash": "${hash(telemetry, o.spelling ?? 'ryu')}", "hash_alg": "${alg}", "signature_alg": "ed25519", "meta": ${meta}`;
  const payloadHash = hash(`${head}}`, o.payloadSpelling ?? o.spelling ?? 'ryu');
  const seed = testSeed(o.seed ?? 3);
  const signature = encodeBase64(protocol.signer.sign(seed, utf8(payloadHash)));
  return `{"payload": ${head}, "payload_hash": "${payloadHash}"}, "signer_public_key_b64": "${encodeBase64(protocol.publicKey(seed))}", "signature_b64": "${signature}", "anchor_ref": null}`;
}
