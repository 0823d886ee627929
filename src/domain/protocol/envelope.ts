/**
 * Proof protocol v1 envelope types (docs/protocol.md). Extra members inside `payload`, `subject`
 * and `telemetry_normalized` are allowed: they are covered by the hashes, so they are signed.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface TelemetryEvent {
  readonly ts: string;
  readonly topic: string;
  readonly data: JsonObject;
  readonly [extra: string]: JsonValue | undefined;
}

export interface ProofSubject {
  readonly task_id: string;
  readonly robot_id?: string | null;
  readonly run_id?: string | null;
  readonly [extra: string]: JsonValue | undefined;
}

export interface TelemetryNormalized {
  readonly events: readonly TelemetryEvent[];
  readonly [extra: string]: JsonValue | readonly TelemetryEvent[] | undefined;
}

export interface ProofPayload {
  readonly version: string;
  readonly subject: ProofSubject;
  readonly created_at: string;
  readonly telemetry_normalized: TelemetryNormalized;
  readonly telemetry_hash: string;
  readonly payload_hash: string;
  readonly hash_alg: string;
  readonly signature_alg: string;
  readonly meta?: JsonObject;
  readonly [extra: string]: unknown;
}

export interface ProofEnvelope {
  readonly payload: ProofPayload;
  readonly signer_public_key_b64: string;
  readonly signature_b64: string;
  /** Kept as sent; not covered by the signature. */
  readonly anchor_ref?: string | null;
  readonly [extra: string]: unknown;
}

export const PROTOCOL_VERSION = '1';
export const HASH_ALG = 'blake3';
export const SIGNATURE_ALG = 'ed25519';
