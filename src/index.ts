/**
 * Library entry: the proof protocol and the registry's domain, for embedding in other
 * services. Loads no HTTP server and no database driver.
 */
export { createProofProtocol, type ProofProtocolOptions } from './adapters/crypto/proof-protocol-factory.js';
export { ProofProtocol } from './application/proofs/proof-protocol.js';
export { decodeEnvelope, prepareUnknown, toReport, verifyUnknown, type CheckStatus, type VerificationReport } from './application/proofs/verify-proof.js';
export { HashWasmBlake3 } from './adapters/crypto/hash-wasm-blake3.js';
export { NodeEd25519 } from './adapters/crypto/node-ed25519.js';
export { TweetnaclEd25519 } from './adapters/crypto/tweetnacl-ed25519.js';
export { SodiumEd25519 } from './adapters/crypto/sodium-ed25519.js';
export { selectEd25519, type Ed25519Choice } from './adapters/crypto/select-ed25519.js';
export * from './domain/protocol/envelope.js';
export type { Blake3, Hasher, Signer, SignatureVerifier } from './domain/protocol/crypto.js';
export { createEnvelope, type EnvelopeInput } from './domain/protocol/create-envelope.js';
export { prepareSignatureCheck, signatureVerdict, verifyEnvelope, type PendingSignature, type VerifiedProof } from './domain/protocol/verify-envelope.js';
export { CHECKS, checkOf, describeFailure, type CheckName, type ProofFailure } from './domain/protocol/failures.js';
export { DEFAULT_LIMITS, jsonDepth, type ProtocolLimits } from './domain/protocol/limits.js';
export { CanonicalJson, canonicalText } from './domain/protocol/canonical.js';
export {
  parseReceivedJson,
  parsedValueOf,
  receivedMember,
  receivedMemberText,
  NumberText,
  type ReceivedJson,
  type ReceivedObject,
  type JsonTextProblem,
} from './domain/protocol/received-json.js';
export { actoText, type ActoText } from './domain/protocol/acto-canonical.js';
export type { ExponentSpelling } from './domain/protocol/acto-numbers.js';
export type { CanonicalForm, HashAlg, ReceivedEnvelope } from './domain/protocol/acto-hashes.js';
export { receivedText } from './application/proofs/received-envelope.js';
export { decodeBase64Strict, encodeBase64, bytesToHex, hexToBytes } from './domain/protocol/encoding.js';
export { parseRfc3339 } from './domain/protocol/datetime.js';
export {
  openCheckpoint,
  verifyInclusionProof,
  verifyConsistencyProof,
  verifyInclusionAnswer,
  logLeafHash,
  logVerifier,
  LogVerifier,
  verifyBundle,
  BUNDLE_FORMAT,
  BUNDLE_CHECKS,
  proofBundle,
  serializeBundle,
  formatTlogProof,
  parseTlogProof,
  parseWitnessPolicy,
  type BundleEnvelopeProtocol,
  type VerifyBundleOptions,
  type ProofBundle,
  type TlogProof,
  type BundleCheck,
  type BundleCheckName,
  type BundleCheckStatus,
  type BundleVerification,
  type EnvelopeVerdict,
  type PolicyWitness,
  type WitnessPolicy,
  describeLogProofFailure,
  describeNoteFailure,
  type Checkpoint,
  type ConsistencyProof,
  type InclusionProof,
  type InclusionAnswerJson,
  type InclusionAnswerFailure,
  type LogProofFailure,
  type NoteFailure,
  type OpenCheckpointOptions,
  type Sha256,
} from './log-verification.js';
