import test from 'ava';
import { failureCode, type FailureCode, type ProofFailureTag } from '../../../src/domain/protocol/failures.js';

// Every failure's code, as docs/api.md ("Error codes") lists them. The type makes a new tag
// without a row here a compile error, and a row that is not its tag in snake_case too.
const CODES: { readonly [Tag in ProofFailureTag]: FailureCode<Tag> } = {
  MalformedEnvelope: 'malformed_envelope',
  LimitExceeded: 'limit_exceeded',
  UnsupportedVersion: 'unsupported_version',
  UnsupportedHashAlg: 'unsupported_hash_alg',
  UnsupportedSignatureAlg: 'unsupported_signature_alg',
  InvalidTimestamp: 'invalid_timestamp',
  TelemetryHashMismatch: 'telemetry_hash_mismatch',
  PayloadHashMismatch: 'payload_hash_mismatch',
  InvalidKeyEncoding: 'invalid_key_encoding',
  SignatureInvalid: 'signature_invalid',
};

test('a failure code is its tag in snake_case, the style of every other code of the API', (t) => {
  for (const [tag, code] of Object.entries(CODES)) {
    t.is(failureCode(tag), code, tag);
    t.regex(code, /^[a-z]+(_[a-z0-9]+)*$/);
  }
  t.is(failureCode('UnstorableProof'), 'unstorable_proof');
});
