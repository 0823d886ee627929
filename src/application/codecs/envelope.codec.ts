import * as t from 'io-ts';
import { stringMatching } from './codec-errors.js';

/**
 * Check 1 of docs/protocol.md: every required member present with the right JSON type. Unknown
 * members pass through untouched (they are hashed and signed). Value rules (version "1",
 * date-times, hashes matching) are the domain's checks 2–7, so their errors name them.
 */
export const NonEmptyString = stringMatching('non-empty string', (s) => s.length > 0, 'must be a non-empty string');
/**
 * A claimed BLAKE3-256 digest: any string here. Whether it is the right 64 lowercase hex
 * characters is checks 4 and 5 (a hash that is not is a hash that does not match), so an
 * envelope with a bad version and a bad hash fails on its version, which check 2 looks at first.
 */
export const ClaimedDigest = stringMatching('digest', () => true, 'must be a string');
const NullableString = t.union([t.string, t.null], 'a string or null');

export const TelemetryEventCodec = t.type({ ts: t.string, topic: NonEmptyString, data: t.UnknownRecord }, 'event');

export const SubjectCodec = t.intersection([t.type({ task_id: t.string }), t.partial({ robot_id: NullableString, run_id: NullableString })], 'subject');

export const PayloadCodec = t.intersection(
  [
    t.type({
      version: t.string,
      subject: SubjectCodec,
      created_at: t.string,
      telemetry_normalized: t.type({ events: t.array(TelemetryEventCodec) }, 'telemetry'),
      telemetry_hash: ClaimedDigest,
      payload_hash: ClaimedDigest,
      hash_alg: t.string,
      signature_alg: t.string,
    }),
    t.partial({ meta: t.UnknownRecord }),
  ],
  'payload',
);

export const EnvelopeCodec = t.intersection(
  [t.type({ payload: PayloadCodec, signer_public_key_b64: t.string, signature_b64: t.string }), t.partial({ anchor_ref: NullableString })],
  'envelope',
);
