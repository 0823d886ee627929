import { ProofProtocol } from '../../application/proofs/proof-protocol.js';
import { DEFAULT_LIMITS, type ProtocolLimits } from '../../domain/protocol/limits.js';
import { HashWasmBlake3 } from './hash-wasm-blake3.js';
import { selectEd25519, type Ed25519Choice } from './select-ed25519.js';

export interface ProofProtocolOptions {
  /**
   * `sodium` (libsodium, fastest; the default where sodium-native loads, else `node`), `node`
   * (node:crypto's OpenSSL) or `tweetnacl` (pure JS, runs anywhere). All accept the same signatures.
   */
  readonly ed25519?: Ed25519Choice;
  readonly limits?: Partial<ProtocolLimits>;
}

/**
 * The one way a protocol is built on real crypto: by the service, each verify worker, the CLI
 * and embedders (through the library entry). Every thread builds its own (the BLAKE3 WASM
 * instance and the key caches cannot be shared), and the same options make them judge alike.
 */
export async function createProofProtocol(options: ProofProtocolOptions = {}): Promise<ProofProtocol> {
  const ed25519 = selectEd25519(options.ed25519);
  return new ProofProtocol(await HashWasmBlake3.create(), ed25519, ed25519, { ...DEFAULT_LIMITS, ...options.limits });
}
