import type { CanonicalJson } from './canonical.js';
import { digestOf, type Blake3, type Signer } from './crypto.js';
import { encodeBase64, utf8 } from './encoding.js';
import { HASH_ALG, PROTOCOL_VERSION, SIGNATURE_ALG, type JsonObject, type ProofEnvelope, type ProofPayload, type TelemetryEvent } from './envelope.js';

export interface EnvelopeInput {
  readonly taskId: string;
  readonly robotId?: string;
  readonly runId?: string;
  readonly events: readonly TelemetryEvent[];
  readonly meta?: JsonObject;
  /** RFC 3339; the caller's clock decides it, so the same input signs to the same envelope. */
  readonly createdAt: string;
}

/** What making an envelope takes: the two primitives, and a canonical JSON writer. */
export interface CreateTools {
  readonly blake3: Blake3;
  readonly signer: Signer;
  readonly canonical: CanonicalJson;
}

/**
 * Builds and signs a v1 envelope: hashes the canonical telemetry, then the canonical payload
 * without payload_hash, then signs the payload_hash hex text with the device key.
 */
export function createEnvelope(input: EnvelopeInput, seed: Uint8Array, tools: CreateTools): ProofEnvelope {
  const subject: ProofPayload['subject'] = {
    task_id: input.taskId,
    ...(input.robotId !== undefined ? { robot_id: input.robotId } : {}),
    ...(input.runId !== undefined ? { run_id: input.runId } : {}),
  };
  const telemetry = { events: input.events };
  const telemetryText = tools.canonical.text(telemetry);
  if (telemetryText === null) throw new TypeError('telemetry contains a value with no canonical JSON form');
  const unsigned = {
    version: PROTOCOL_VERSION,
    subject,
    created_at: input.createdAt,
    telemetry_normalized: telemetry,
    telemetry_hash: tools.blake3.hashText(telemetryText),
    hash_alg: HASH_ALG,
    signature_alg: SIGNATURE_ALG,
    ...(input.meta !== undefined ? { meta: input.meta } : {}),
  };
  const written = tools.canonical.payload(unsigned);
  if (written === null) throw new TypeError('payload contains a value with no canonical JSON form');
  const payloadHash = digestOf(tools.blake3, written.bytes);
  return {
    payload: { ...unsigned, payload_hash: payloadHash },
    signer_public_key_b64: encodeBase64(tools.signer.publicKey(seed)),
    signature_b64: encodeBase64(tools.signer.sign(seed, utf8(payloadHash))),
  };
}
