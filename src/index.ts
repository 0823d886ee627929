/**
 * Library entry: the proof protocol and the registry's domain, for embedding in other
 * services. Loads no HTTP server and no database driver.
 */
export { createProofProtocol, type ProofProtocolOptions } from './adapters/crypto/proof-protocol-factory.js';
export { ProofProtocol } from './application/proof-protocol.js';
export { decodeEnvelope, prepareUnknown, toReport, verifyUnknown, type CheckStatus, type VerificationReport } from './application/verify-proof.js';
export { HashWasmBlake3 } from './adapters/crypto/hash-wasm-blake3.js';
export { NodeEd25519 } from './adapters/crypto/node-ed25519.js';
export { TweetnaclEd25519 } from './adapters/crypto/tweetnacl-ed25519.js';
export { SodiumEd25519 } from './adapters/crypto/sodium-ed25519.js';
export { selectEd25519, type Ed25519Choice } from './adapters/crypto/select-ed25519.js';
export * from './domain/protocol/envelope.js';
export type { Blake3, Signer, SignatureVerifier } from './domain/protocol/crypto.js';
export { createEnvelope, type EnvelopeInput } from './domain/protocol/create-envelope.js';
export { prepareSignatureCheck, signatureVerdict, verifyEnvelope, type PendingSignature, type VerifiedProof } from './domain/protocol/verify-envelope.js';
export { CHECKS, checkOf, describeFailure, type CheckName, type ProofFailure } from './domain/protocol/failures.js';
export { DEFAULT_LIMITS, jsonDepth, type ProtocolLimits } from './domain/protocol/limits.js';
export { CanonicalJson, canonicalText } from './domain/protocol/canonical.js';
export { decodeBase64Strict, encodeBase64, bytesToHex, hexToBytes } from './domain/protocol/encoding.js';
export { parseRfc3339 } from './domain/protocol/datetime.js';
