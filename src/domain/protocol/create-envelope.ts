import { canonicalPayloadText, canonicalText } from './canonical.js';
import type { Blake3, Signer } from './crypto.js';
import { encodeBase64, utf8 } from './encoding.js';
import {
  HASH_ALG,
  PROTOCOL_VERSION,
  SIGNATURE_ALG,
  type JsonObject,
  type ProofEnvelope,
  type ProofPayload,
  type TelemetryEvent,
} from './envelope.js';

export interface EnvelopeInput {
  readonly taskId: string;
  readonly robotId?: string;
  readonly runId?: string;
  readonly events: readonly TelemetryEvent[];
  readonly meta?: JsonObject;
  /** RFC 3339; the caller's clock decides it, so the same input signs to the same envelope. */
  readonly createdAt: string;
}

export interface CreateCrypto {
  readonly blake3: Blake3;
  readonly signer: Signer;
}

/**
 * Builds and signs a v1 envelope: hashes the canonical telemetry, then the canonical payload
 * without payload_hash, then signs the payload_hash hex text with the device key.
 */
export function createEnvelope(input: EnvelopeInput, seed: Uint8Array, crypto: CreateCrypto): ProofEnvelope {
  const subject: ProofPayload['subject'] = {
    task_id: input.taskId,
    ...(input.robotId !== undefined ? { robot_id: input.robotId } : {}),
    ...(input.runId !== undefined ? { run_id: input.runId } : {}),
  };
  const telemetry = { events: input.events };
  const telemetryText = canonicalText(telemetry);
  if (telemetryText === null) throw new TypeError('telemetry contains a value with no canonical JSON form');
  const unsigned = {
    version: PROTOCOL_VERSION,
    subject,
    created_at: input.createdAt,
    telemetry_normalized: telemetry,
    telemetry_hash: crypto.blake3.hashText(telemetryText),
    hash_alg: HASH_ALG,
    signature_alg: SIGNATURE_ALG,
    ...(input.meta !== undefined ? { meta: input.meta } : {}),
  };
  const payloadText = canonicalPayloadText(unsigned, telemetryText);
  if (payloadText === null) throw new TypeError('payload contains a value with no canonical JSON form');
  const payloadHash = crypto.blake3.hashText(payloadText);
  return {
    payload: { ...unsigned, payload_hash: payloadHash },
    signer_public_key_b64: encodeBase64(crypto.signer.publicKey(seed)),
    signature_b64: encodeBase64(crypto.signer.sign(seed, utf8(payloadHash))),
  };
}
